import type { Principal } from '@plac/shared/access';
import { daysBetween, faixaDaQuantidade, monthOf, nextMonth, nomeFaixa, toTransportDate, type TabelaPreco } from '@plac/shared/domain';
import { clientePorCnpj, clienteResumo } from '../clientes';
import { consumoDoCliente } from '../consumo';
import { forbidden, invalid, notFound } from '../platform/errors';
import { todos as servicosDoCatalogo } from '../servicos';
import { tabelaPrecoDoMes } from '../tarifas';
import { decidir, itemDaFatura, valoresDaFatura, type Valores } from './regras';

/**
 * The projected bill (issue 14 item 6; docs/faturamento.md "The projected bill"): a client's month so
 * far, priced with the same rule as the billing run (valoresDaFatura → precificar), and the invoice the
 * month would give at its end if the client kept its pace.
 *
 * The pace is linear by calendar day in Bahia: a (service, UF) line with q requests on day d of a month
 * of n days is projected to round(q × n / d). Today counts as a whole day elapsed, so the first day does
 * not blow a handful of requests up to thousands, and on the last day the projection is the usage.
 */

export interface ConsumoLinha {
  servico: number;
  uf: string;
  requisicoes: number;
}

/** Day d of n in the month of `hoje` ('YYYY-MM-DD'), both counted in calendar days. */
export function diasDoMes(mes: string, hoje: string): { dia: number; diasNoMes: number } {
  const inicio = `${mes}-01`;
  return { dia: daysBetween(inicio, hoje) + 1, diasNoMes: daysBetween(inicio, `${nextMonth(mes)}-01`) };
}

/** A line's requests at the month's end at the pace so far. */
export function projetar(requisicoes: number, dia: number, diasNoMes: number): number {
  if (dia >= diasNoMes) return requisicoes;
  return Math.round((requisicoes * diasNoMes) / Math.max(1, dia));
}

interface FaixaView {
  nome: string;
  qtdMinima: number;
  qtdMaxima: number | null;
  /** The service's unit value in that band, thousandths of a real. */
  valorUnitario: number;
}

/** Band facts of one service: the band its total reached, the next one and how far it is. */
export function faixasDoServico(tabela: TabelaPreco, servico: number, total: number, totalProjetado: number) {
  const view = (f: TabelaPreco['faixas'][number] | null | undefined): FaixaView | null => {
    if (!f) return null;
    return { nome: nomeFaixa(tabela.faixas.indexOf(f) + 1), qtdMinima: f.qtdMinima, qtdMaxima: f.qtdMaxima, valorUnitario: tabela.valores.get(servico)?.get(f.faixaId) ?? 0 };
  };
  const atual = faixaDaQuantidade(tabela.faixas, total);
  // With no request yet, the next band is the first; past a capped or open last band there is none.
  const proxima = atual ? tabela.faixas[tabela.faixas.indexOf(atual) + 1] : tabela.faixas[0];
  return {
    faixa: view(atual),
    proximaFaixa: view(proxima),
    faltamParaProximaFaixa: proxima ? Math.max(0, proxima.qtdMinima - total) : null,
    faixaProjetada: view(faixaDaQuantidade(tabela.faixas, totalProjetado)),
  };
}

const totais = (v: Valores) => ({ valorServicos: v.valorServicos, valorAssinatura: v.valorAssinatura, valorTotal: v.valorTotal });

/**
 * The projection of a month from its counters (pure): the invoice of the usage so far and of the
 * projected usage, line by line and per service with its bands. `faturavel` is the billing run's own
 * decision for the month as it stands (a client in evaluation is never billed).
 */
export function projecao(
  tabela: TabelaPreco | null,
  consumo: readonly ConsumoLinha[],
  servicos: readonly { idModuloServico: number; descricao: string }[],
  situacao: Parameters<typeof decidir>[0],
  dias: { dia: number; diasNoMes: number },
) {
  const projetado = consumo.map((c) => ({ ...c, requisicoes: projetar(c.requisicoes, dias.dia, dias.diasNoMes) }));
  const requisicoes = consumo.reduce((s, c) => s + c.requisicoes, 0);
  const faturavel = decidir(situacao, requisicoes) === 'faturar';
  if (!tabela) return { tarifacao: false as const, faturavel, requisicoes, servicos: [], itens: [], atual: null, projetada: null, assinaturaMinima: null };
  const atual = valoresDaFatura(tabela, consumo, servicos);
  const futuro = valoresDaFatura(tabela, projetado, servicos);
  const chave = (i: { servico: number; uf: string }) => `${i.servico}:${i.uf}`;
  const futuroPorLinha = new Map(futuro.itens.map((i) => [chave(i), i]));
  const porServico = new Map<number, { descricao: string; requisicoes: number; requisicoesProjetadas: number }>();
  for (const i of atual.itens) {
    const s = porServico.get(i.servico) ?? { descricao: i.descricao, requisicoes: 0, requisicoesProjetadas: 0 };
    s.requisicoes += i.requisicoes;
    s.requisicoesProjetadas += futuroPorLinha.get(chave(i))?.requisicoes ?? i.requisicoes;
    porServico.set(i.servico, s);
  }
  return {
    tarifacao: true as const,
    faturavel,
    requisicoes,
    servicos: [...porServico].map(([idModuloServico, s]) => ({ idModuloServico, ...s, ...faixasDoServico(tabela, idModuloServico, s.requisicoes, s.requisicoesProjetadas) })),
    itens: atual.itens.map((i) => {
      const f = futuroPorLinha.get(chave(i));
      return {
        ...itemDaFatura(i),
        requisicoesProjetadas: f?.requisicoes ?? i.requisicoes,
        valorUnitarioProjetado: f?.valorUnitario ?? i.valorUnitario,
        valorConsumoProjetado: f?.valor ?? i.valor,
      };
    }),
    atual: totais(atual),
    projetada: totais(futuro),
    assinaturaMinima: tabela.assinatura,
  };
}

/**
 * The projected bill of the current month: a client user's own client (a CNPJ of another client is
 * 403), any client's for the admin (the CNPJ is then required).
 */
export async function faturaProjetada(cnpj: string | undefined, principal: Principal, agora: Date = new Date()) {
  let cliente;
  if (principal.tipo !== 'S') {
    if (!principal.clienteId) throw forbidden('clienteNaoPermitido');
    cliente = await clienteResumo(principal.clienteId);
    if (cnpj && cliente?.cnpj !== cnpj.toUpperCase()) throw forbidden('clienteNaoPermitido');
  } else {
    if (!cnpj) throw invalid('campoObrigatorio', { field: 'Cliente' });
    cliente = await clientePorCnpj(cnpj.toUpperCase());
  }
  if (!cliente) throw notFound();
  const hoje = toTransportDate(agora);
  const mes = monthOf(agora);
  const dias = diasDoMes(mes, hoje);
  const [tabela, consumo, servicos] = await Promise.all([tabelaPrecoDoMes(mes), consumoDoCliente(cliente.id, mes), servicosDoCatalogo()]);
  return {
    mes,
    calculadaEm: agora.toISOString(),
    ...dias,
    cliente: { cnpj: cliente.cnpj, razaoSocial: cliente.razao_social, situacao: cliente.situacao },
    ...projecao(tabela, consumo, servicos, cliente.situacao, dias),
  };
}
