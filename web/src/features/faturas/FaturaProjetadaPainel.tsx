import '../../components/page-layout.css';
import './faturas.css';
import './fatura-projetada.css';
import { faturamento } from '@plac/shared/contracts';
import { asCentavos, asMilesimos, formatBRL, formatCnpj, formatMilesimos, formatMonth } from '@plac/shared/domain';
import { useState } from 'react';
import { useApiQuery } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useCurrentUser } from '../../lib/session';
import { descricaoServico, rotuloUf } from './model';
import { useOpcoesDeClientes } from '../../lib/opcoes-clientes';
import { ClienteFilter } from '../../components/ClienteFilter';

/**
 * The projected bill on the dashboard (issue 14 item 6; docs/faturamento.md "The projected bill"): the
 * month so far per service and UF, the band each service reached and how far the next one is, and the
 * invoice at the month's end at the current pace, priced by the API with the billing run's own rule. A
 * client user sees its own client; the administrator picks any client.
 */

type Projecao = faturamento.FaturaProjetada;
type FaixaView = NonNullable<Projecao['servicos'][number]['faixa']>;

const brl = (centavos: number) => formatBRL(asCentavos(centavos));
const unitario = (milesimos: number) => formatMilesimos(asMilesimos(milesimos));
const qtd = (n: number) => n.toLocaleString('pt-BR');
const faixaTexto = (f: FaixaView | null) => (f ? `${f.nome} (${unitario(f.valorUnitario)})` : '—');

function proximaTexto(s: Projecao['servicos'][number]): string {
  if (!s.proximaFaixa || s.faltamParaProximaFaixa === null) return 'Última faixa atingida';
  return `Faltam ${qtd(s.faltamParaProximaFaixa)} para a ${s.proximaFaixa.nome} (${unitario(s.proximaFaixa.valorUnitario)})`;
}

export default function FaturaProjetadaPainel() {
  const user = useCurrentUser();
  const admin = user.roles.includes('sefaz_admin');
  const [cnpj, setCnpj] = useState<string | null>(null);
  const { opcoes } = useOpcoesDeClientes(admin, 'cnpj');
  const enabled = !admin || cnpj !== null;
  const projecao = useApiQuery(faturamento.faturaProjetada, { query: admin && cnpj ? { cnpj } : {} }, { enabled });

  return (
    <section className="page-panel fatura-projetada" aria-labelledby="fatura-projetada-titulo">
      <h2 id="fatura-projetada-titulo">Fatura Projetada do Mês</h2>
      {admin && (
        <div className="page-grid">
          <ClienteFilter id="projecao-cliente" options={opcoes} value={cnpj} onChange={(v) => setCnpj(v ?? null)} admin={admin} placeholder="Selecione um cliente" />
        </div>
      )}
      {enabled && projecao.isPending && <p>Calculando a projeção…</p>}
      {projecao.data && <ProjecaoDoMes p={projecao.data} />}
    </section>
  );
}

function ProjecaoDoMes({ p }: { p: Projecao }) {
  return (
    <div className="fatura-projetada-corpo">
      <p>
        {p.cliente.razaoSocial} - {formatCnpj(p.cliente.cnpj)} · Mês {formatMonth(p.mes)}, dia {p.dia} de {p.diasNoMes} · calculada em {formatDateTime(p.calculadaEm)}
      </p>
      {!p.faturavel && p.cliente.situacao === 'E' && <p className="fatura-projetada-aviso">Cliente em avaliação: o consumo é medido, mas não é faturado.</p>}
      {!p.tarifacao ? (
        <p className="fatura-projetada-aviso">Não há tarifação vigente para o mês: a fatura não pode ser projetada.</p>
      ) : (
        <>
          <dl className="fatura-projetada-totais">
            <div>
              <dt>Consumo até hoje</dt>
              <dd>{brl(p.atual!.valorServicos)}</dd>
            </div>
            <div>
              <dt>Assinatura mínima</dt>
              <dd>{brl(p.assinaturaMinima!)}</dd>
            </div>
            <div>
              <dt>Fatura projetada no fim do mês</dt>
              <dd>{brl(p.projetada!.valorTotal)}</dd>
            </div>
          </dl>
          <p className="fatura-nota">
            Projeção no ritmo atual: o consumo de cada serviço e UF até hoje, estendido aos {p.diasNoMes} dias do mês, com as mesmas faixas e tarifas do faturamento.
          </p>
          {p.servicos.length === 0 ? (
            <p>Nenhuma requisição cobrada no mês até agora.</p>
          ) : (
            <>
              <table className="fatura-tabela" aria-label="Faixas por serviço">
                <thead>
                  <tr>
                    <th scope="col">Serviço</th>
                    <th scope="col" className="fatura-num">Requisições</th>
                    <th scope="col">Faixa atingida</th>
                    <th scope="col">Próxima faixa</th>
                    <th scope="col" className="fatura-num">Requisições projetadas</th>
                    <th scope="col">Faixa projetada</th>
                  </tr>
                </thead>
                <tbody>
                  {p.servicos.map((s) => (
                    <tr key={s.idModuloServico}>
                      <td>{descricaoServico(s.descricao)}</td>
                      <td className="fatura-num">{qtd(s.requisicoes)}</td>
                      <td>{faixaTexto(s.faixa)}</td>
                      <td>{proximaTexto(s)}</td>
                      <td className="fatura-num">{qtd(s.requisicoesProjetadas)}</td>
                      <td>{faixaTexto(s.faixaProjetada)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <table className="fatura-tabela" aria-label="Consumo por serviço e UF">
                <thead>
                  <tr>
                    <th scope="col">Serviço</th>
                    <th scope="col">UF</th>
                    <th scope="col" className="fatura-num">Requisições</th>
                    <th scope="col" className="fatura-num">Valor Unitário</th>
                    <th scope="col" className="fatura-num">Valor até hoje</th>
                    <th scope="col" className="fatura-num">Requisições projetadas</th>
                    <th scope="col" className="fatura-num">Valor projetado</th>
                  </tr>
                </thead>
                <tbody>
                  {p.itens.map((i) => (
                    <tr key={`${i.idModuloServico}-${i.sgUf}`}>
                      <td>{descricaoServico(i.descricao)}</td>
                      <td>{rotuloUf(i)}</td>
                      <td className="fatura-num">{qtd(i.requisicoes)}</td>
                      <td className="fatura-num">{unitario(i.valorUnitario)}</td>
                      <td className="fatura-num">{brl(i.valorConsumo)}</td>
                      <td className="fatura-num">{qtd(i.requisicoesProjetadas)}</td>
                      <td className="fatura-num">{brl(i.valorConsumoProjetado)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row" colSpan={4}>
                      Serviços
                    </th>
                    <td className="fatura-num">{brl(p.atual!.valorServicos)}</td>
                    <td />
                    <td className="fatura-num">{brl(p.projetada!.valorServicos)}</td>
                  </tr>
                  <tr>
                    <th scope="row" colSpan={4}>
                      Complemento da assinatura
                    </th>
                    <td className="fatura-num">{brl(p.atual!.valorAssinatura)}</td>
                    <td />
                    <td className="fatura-num">{brl(p.projetada!.valorAssinatura)}</td>
                  </tr>
                  <tr>
                    <th scope="row" colSpan={4}>
                      Total
                    </th>
                    <td className="fatura-num">{brl(p.atual!.valorTotal)}</td>
                    <td />
                    <td className="fatura-num">{brl(p.projetada!.valorTotal)}</td>
                  </tr>
                </tfoot>
              </table>
            </>
          )}
        </>
      )}
    </div>
  );
}
