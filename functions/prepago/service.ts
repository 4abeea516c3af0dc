import { isAdmin, type Principal } from '@plac/shared/access';
import type { DaePrepago, ReservaBody } from '@plac/shared/contracts/prepago';
import {
  monthOf,
  precoDaReserva,
  saldoEmCentavos,
  SERVICO,
  SERVICOS_PREPAGOS,
  todayInBahia,
  validarQuantidades,
  valorConsumido,
  vencimentoDaeReserva,
} from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { clientePorCnpj, clienteResumo, todosClientes } from '../clientes';
import { presignDownload } from '../platform/documents';
import { conflict, forbidden, invalid, notFound } from '../platform/errors';
import { paginaComCursor, vinculoDoCursor, type Pagina } from '../platform/paginas';
import { tabelaPrecoDoMes } from '../tarifas';
import { cicloDoId } from './pagamento';
import * as store from './store';
import type { ContaRecord, ReservaRecord } from './store';
import { saldoMinimo, valorUnitarioDe } from './valores';

/**
 * Prepaid requests for bookkeepers (issue 17; docs/prepago.md). The rules:
 * - a bookkeeper is an IMF client; an administrator works on any, a client user only on its own
 *   company (another CNPJ: 403 clienteNaoPermitido);
 * - a reservation is refused while the bookkeeper has one awaiting payment or in force
 *   ('Rejeição: Já existe um cadastro…'), by the account's conditional write, not by a read;
 * - its value is the price rule in force applied to the quantities (precoDaReserva), issued as a DAE;
 * - paying the DAE (the bank-return import) credits the account: balance = value, deadline =
 *   payment + PRAZO_CONSUMO_MESES;
 * - each use of the three services (a Fat-e delivered, a key monitored, an assignment registered)
 *   debits its unit value atomically (uso.ts); a use the balance does not cover is billed monthly.
 */

/**
 * Issues a DAE for a reservation: the DAE context's generator (functions/dae, which billing uses too;
 * the same barcode and PDF as an invoice's), wired in by the handler. Billing imports this context (a bank return credits a
 * reservation), so this context never imports billing.
 */
export type EmissorDae = (
  d: { documentoId: string; origem: 'PREPAGO'; rotulo: string; revisao: number; clienteId: string; razaoSocial: string; cnpj: string; mes: string; valor: number },
  dtVencimento: string,
  emitidoPor: string,
  agora: Date,
) => Promise<{ dtVencimento: string; numero: number; codigoBarras: string; linhaDigitavel: string; chavePdf: string }>;

const rotuloDocumento = 'Pagamento antecipado';

/** `PA-<clienteId>-<ciclo>`. */
const reservaIdDe = (clienteId: string, ciclo: number) => `PA-${clienteId}-${ciclo}`;

/** The bookkeepers (IMF clients) the principal may pick: every one for an admin, its own for a client user. */
export async function escrituradores(p: Principal) {
  if (!isAdmin(p)) {
    const c = p.clienteId ? await clienteResumo(p.clienteId) : null;
    return c && c.tipo_cliente === 'IMF' ? [{ id: c.id, cnpj: c.cnpj, razaoSocial: c.razao_social }] : [];
  }
  return (await todosClientes())
    .filter((c) => c.tipo_cliente === 'IMF')
    .map((c) => ({ id: c.id, cnpj: c.cnpj, razaoSocial: c.razao_social }))
    .sort((a, b) => a.razaoSocial.localeCompare(b.razaoSocial, 'pt-BR'));
}

/** The bookkeeper a request is about: the CNPJ named (an admin must name one), a client user's own. */
async function escrituradorDe(p: Principal, cnpj: string | undefined) {
  if (isAdmin(p)) {
    if (!cnpj) throw invalid('prepagoEscrituradorObrigatorio');
    const c = await clientePorCnpj(cnpj);
    if (!c || c.tipo_cliente !== 'IMF') throw invalid('reservaEscrituradorInvalido');
    return c;
  }
  const c = p.clienteId ? await clienteResumo(p.clienteId) : null;
  if (!c || (cnpj && cnpj !== c.cnpj)) throw forbidden('clienteNaoPermitido');
  if (c.tipo_cliente !== 'IMF') throw invalid('reservaEscrituradorInvalido');
  return c;
}

function daeView(r: ReservaRecord): DaePrepago {
  const [ano, mes] = r.mes.split('-').map(Number) as [number, number];
  return {
    dae: {
      id: r.reservaId,
      valor: r.valor,
      situacao: r.situacao,
      ano,
      mes,
      createdAt: r.createdAt,
      dtVencimento: r.dtVencimento,
      numero: r.numeroDae,
      linhaDigitavel: r.linhaDigitavel,
      pagoEm: r.pagoEm ?? null,
    },
    pagamentoAntecipado: {
      razaoSocial: r.razaoSocial,
      cnpjEscriturador: r.cnpj,
      emailContato: r.emailContato,
      qtdEnvioFate: r.qtdEnvioFate,
      qtdMonitoramentoDe: r.qtdMonitoramentoDe,
      qtdRegistroCessao: r.qtdRegistroCessao,
    },
  };
}

/** The unit values a reservation fixes, by service id. */
const valoresDe = (preco: NonNullable<ReturnType<typeof precoDaReserva>>) => {
  const de = (servico: number) => preco.linhas.find((l) => l.servico === servico)?.valorUnitario ?? 0;
  return { envioFate: de(SERVICO.envioFate), monitoramento: de(SERVICO.monitoramentoDocumentos), registroCessao: de(SERVICO.registroCessao) };
};


/** Whether the cycle ended: past its deadline, or less left than its cheapest use (a new reservation may then be made). */
const encerrada = (c: ContaRecord, hoje: string) => c.situacao === 'VIGENTE' && ((c.prazoConsumo ?? '') < hoje || c.saldoMilesimos < saldoMinimo(c));

/** What a reservation of these quantities costs now (the price rule in force), without making it. */
export async function cotar(q: Pick<ReservaBody, 'qtdEnvioFate' | 'qtdMonitoramentoDe' | 'qtdRegistroCessao'>, agora: Date = new Date()) {
  if (validarQuantidades(q)) throw invalid('reservaQuantidadeMinima');
  const tabela = await tabelaPrecoDoMes(monthOf(agora));
  const preco = tabela ? precoDaReserva(tabela, q) : null;
  if (!preco || preco.total <= 0) throw invalid('reservaSemTarifa');
  return { valor: preco.total };
}

export async function cadastrar(emitirDae: EmissorDae, p: Principal, body: ReservaBody, agora: Date = new Date()) {
  const cliente = await escrituradorDe(p, body.cnpjEscriturador);
  if (validarQuantidades(body)) throw invalid('reservaQuantidadeMinima');
  const hoje = todayInBahia(agora);
  const mes = monthOf(agora);
  const tabela = await tabelaPrecoDoMes(mes);
  const preco = tabela ? precoDaReserva(tabela, body) : null;
  if (!preco || preco.total <= 0) throw invalid('reservaSemTarifa');

  const anterior = await store.lerConta(cliente.id);
  if (anterior && !encerrada(anterior, hoje)) throw conflict('reservaJaExiste', ['cnpjEscriturador']);
  const ciclo = (anterior?.ciclo ?? 0) + 1;
  const reservaId = reservaIdDe(cliente.id, ciclo);
  // The DAE first (its number and PDF); if the reservation then loses, the DAE is an unused one.
  const dtVencimento = vencimentoDaeReserva(hoje);
  const dae = await emitirDae(
    { documentoId: reservaId, origem: 'PREPAGO', rotulo: rotuloDocumento, revisao: 0, clienteId: cliente.id, razaoSocial: cliente.razao_social, cnpj: cliente.cnpj, mes, valor: preco.total },
    dtVencimento,
    p.name,
    agora,
  );
  const reserva: ReservaRecord = {
    clienteId: cliente.id,
    ciclo,
    reservaId,
    cnpj: cliente.cnpj,
    razaoSocial: cliente.razao_social,
    emailContato: body.emailContato,
    qtdEnvioFate: body.qtdEnvioFate,
    qtdMonitoramentoDe: body.qtdMonitoramentoDe,
    qtdRegistroCessao: body.qtdRegistroCessao,
    valor: preco.total,
    faixaId: preco.faixaId,
    mes,
    situacao: 'A',
    dtVencimento: dae.dtVencimento,
    numeroDae: dae.numero,
    codigoBarras: dae.codigoBarras,
    linhaDigitavel: dae.linhaDigitavel,
    chavePdf: dae.chavePdf,
    createdAt: agora.toISOString(),
    createdBy: p.name,
    lista: 'reservas',
  };
  const conta: ContaRecord = {
    clienteId: cliente.id,
    cnpj: cliente.cnpj,
    razaoSocial: cliente.razao_social,
    ciclo,
    situacao: 'AGUARDANDO_PAGAMENTO',
    valorContratado: preco.total,
    saldoMilesimos: 0,
    valores: valoresDe(preco),
    updatedAt: agora.toISOString(),
  };
  if (!(await store.abrirCiclo(conta, reserva, anterior, hoje, anterior ? saldoMinimo(anterior) : 1))) throw conflict('reservaJaExiste', ['cnpjEscriturador']);
  return { message: message('reservaCadastrada'), dae: daeView(reserva) };
}

/**
 * The reservations' DAEs, a page at a time (docs/architecture.md, "Lists"): the admin's every-bookkeeper
 * list is one key-range Query by creation (gsi1, the months as the range), newest first; a bookkeeper's
 * is its few reservations read and ordered by cycle number, newest first (10 before 9, never between
 * 2 and 1 as the sort key's text would have it); the reference months and the status are checked on
 * the items read.
 */
export async function daes(p: Principal, q: { cnpj?: string | undefined; dataInicio?: string | undefined; dataFim?: string | undefined; situacao?: 'A' | 'P' | undefined; cursor?: string | undefined; perPage: number }) {
  if (q.dataInicio && q.dataFim && q.dataInicio > q.dataFim) throw invalid('dataInicioMaiorDataFim');
  const filtrar = q.dataInicio || q.dataFim || q.situacao;
  const aceita = filtrar
    ? (r: ReservaRecord) => (!q.dataInicio || r.mes >= q.dataInicio) && (!q.dataFim || r.mes <= q.dataFim) && (!q.situacao || r.situacao === q.situacao)
    : undefined;
  let ler: (posicao: string | undefined) => Promise<Pagina<ReservaRecord>>;
  if (isAdmin(p) && !q.cnpj) {
    const [de, ate] = [q.dataInicio ? `${q.dataInicio}-01` : '0000', q.dataFim ? `${q.dataFim}-31T99` : '9999'];
    ler = (posicao) => store.paginaDeReservasEntre(de, ate, { perPage: q.perPage, posicao, aceita });
  } else {
    const clienteId = (await escrituradorDe(p, q.cnpj)).id;
    ler = (posicao) => store.paginaDeReservasDoCliente(clienteId, { perPage: q.perPage, posicao, aceita });
  }
  const vinculo = vinculoDoCursor(p, 'prepago.daes', { cnpj: q.cnpj, dataInicio: q.dataInicio, dataFim: q.dataFim, situacao: q.situacao, perPage: q.perPage });
  const pagina = await paginaComCursor(vinculo, q.cursor, ler);
  return { ...pagina, items: pagina.items.map(daeView) };
}

/**
 * The DAE's PDF. An open DAE past its due date is issued again with a new due date (the reservation
 * points to the new one; a payment of the old barcode is still recognised by the bank-return import).
 */
export async function imprimir(emitirDae: EmissorDae, p: Principal, id: string, agora: Date = new Date()) {
  const ref = cicloDoId(id);
  let r = ref ? await store.lerReserva(ref.clienteId, ref.ciclo) : null;
  if (!r) throw notFound();
  if (!isAdmin(p) && p.clienteId !== r.clienteId) throw forbidden('clienteNaoPermitido');
  const hoje = todayInBahia(agora);
  if (r.situacao === 'A' && r.dtVencimento < hoje) {
    const dae = await emitirDae(
      { documentoId: r.reservaId, origem: 'PREPAGO', rotulo: rotuloDocumento, revisao: 0, clienteId: r.clienteId, razaoSocial: r.razaoSocial, cnpj: r.cnpj, mes: r.mes, valor: r.valor },
      vencimentoDaeReserva(hoje),
      p.name,
      agora,
    );
    await store.trocarDae(r.clienteId, r.ciclo, { dtVencimento: dae.dtVencimento, numeroDae: dae.numero, codigoBarras: dae.codigoBarras, linhaDigitavel: dae.linhaDigitavel, chavePdf: dae.chavePdf });
    r = (await store.lerReserva(r.clienteId, r.ciclo)) ?? r;
  }
  return { urlDAE: await presignDownload(r.chavePdf, 'application/pdf', { inline: true }), dtVencimento: r.dtVencimento, linhaDigitavel: r.linhaDigitavel };
}

function contaView(c: ContaRecord | null, cliente: { cnpj: string; razao_social: string }, hoje: string) {
  const valores = SERVICOS_PREPAGOS.map((s) => ({ idModuloServico: s.servico, descricao: s.descricao, valorUnitario: c ? valorUnitarioDe(c, s.servico) : 0 }));
  if (!c) return { cnpj: cliente.cnpj, razaoSocial: cliente.razao_social, situacao: 'SEM_RESERVA' as const, valorContratado: 0, valorReserva: null, prazoConsumo: null, saldoAtual: 0, valores };
  const situacao = c.situacao === 'VIGENTE' && (c.prazoConsumo ?? '') < hoje ? ('ENCERRADA' as const) : c.situacao;
  return {
    cnpj: c.cnpj,
    razaoSocial: c.razaoSocial,
    situacao,
    valorContratado: c.situacao === 'VIGENTE' ? c.valorContratado : 0,
    valorReserva: c.situacao === 'AGUARDANDO_PAGAMENTO' ? c.valorContratado : null,
    prazoConsumo: c.prazoConsumo ?? null,
    saldoAtual: situacao === 'VIGENTE' ? saldoEmCentavos(c.saldoMilesimos) : 0,
    valores,
  };
}

export async function conta(p: Principal, cnpj: string | undefined, agora: Date = new Date()) {
  const cliente = await escrituradorDe(p, cnpj);
  return contaView(await store.lerConta(cliente.id), cliente, todayInBahia(agora));
}

export async function extrato(p: Principal, q: { cnpj?: string | undefined; mes: string; page: number; size: number }, agora: Date = new Date()) {
  if (q.mes > monthOf(agora)) throw invalid('extratoMesInvalido');
  const cliente = await escrituradorDe(p, q.cnpj);
  const linhas = (await store.extratoDoMes(cliente.id, q.mes))
    .filter((l) => l.requisicoes > 0)
    .map((l) => ({
      cliente: cliente.razao_social,
      idModuloServico: l.servico,
      servico: SERVICOS_PREPAGOS.find((s) => s.servico === l.servico)?.descricao ?? `Serviço ${l.servico}`,
      requisicoes: l.requisicoes,
      valorFaixa: l.valorUnitario,
      valorConsumido: valorConsumido(l.requisicoes, l.valorUnitario),
    }));
  const totalConsumido = linhas.reduce((s, l) => s + l.valorConsumido, 0);
  return { items: linhas.slice((q.page - 1) * q.size, q.page * q.size), total: linhas.length, page: q.page, size: q.size, totalConsumido };
}
