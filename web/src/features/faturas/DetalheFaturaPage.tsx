import '../../components/page-layout.css';
import './faturas.css';
import { routePath } from '@plac/shared/access';
import { faturamento } from '@plac/shared/contracts';
import { asCentavos, asMilesimos, formatBRL, formatCnpj, formatDate, formatMilesimos, vencimentoPadraoDae } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useApiQuery } from '../../lib/api';
import { descricaoServico, mesDaFatura, periodo, rotuloUf, type FaturaDetalhe } from './model';
import { RecebimentosFatura } from './RecebimentosFatura';
import { EvidenciasFatura } from './EvidenciasFatura';
import { SituacaoFatura } from './SituacaoFatura';

/**
 * detalhe-fatura (sefaz_admin, cliente; spec 2 section 2.10), printable on one A4 page where it fits
 * (faturas.css @media print): the client, the invoice's status in words with its short payments
 * ('Pago parcialmente', R$ X em dd/mm/aaaa; SituacaoFatura), its due date, its DAE's number and, once
 * paid, the payment's day and amount; the legal note; the payments received and the balance owed
 * (RecebimentosFatura, issue 37); 'Resumo por Serviço e UF' with its totals and
 * 'Consumo' by service; the month's archived evidence (EvidenciasFatura, issue 41). ?id=<idConsumo>.
 */

/** The due date shown: the DAE's (the paid one, else the latest), else the default one a DAE would get. */
const vencimento = (f: FaturaDetalhe) => formatDate(f.dae?.dtVencimento ?? vencimentoPadraoDae(mesDaFatura(f)));

/** ours: the spec states the note's meaning, not its words. */
export const NOTA_IMUNIDADE =
  'A prestação deste serviço é comprovada por este demonstrativo, sem emissão de Nota Fiscal de Serviço municipal, em razão da imunidade tributária recíproca.';

const brl = (centavos: number) => formatBRL(asCentavos(centavos));
const unitario = (milesimos: number) => formatMilesimos(asMilesimos(milesimos));
const quantidade = (n: number) => n.toLocaleString('pt-BR');

interface PorServico {
  idModuloServico: number;
  descricao: string;
  requisicoes: number;
  valorConsumo: number;
}

function porServico(itens: FaturaDetalhe['itens']): PorServico[] {
  const grupos = new Map<number, PorServico>();
  for (const i of itens) {
    const g = grupos.get(i.idModuloServico) ?? { idModuloServico: i.idModuloServico, descricao: descricaoServico(i.descricao), requisicoes: 0, valorConsumo: 0 };
    g.requisicoes += i.requisicoes;
    g.valorConsumo += i.valorConsumo;
    grupos.set(i.idModuloServico, g);
  }
  return [...grupos.values()];
}

export default function DetalheFaturaPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const valido = faturamento.idFatura.safeParse(id).success;
  const detalhe = useApiQuery(faturamento.detalheFatura, { params: { idConsumo: id } }, { enabled: valido });
  const fatura = detalhe.data;
  const grupos = useMemo(() => (fatura ? porServico(fatura.itens) : []), [fatura]);
  const totalRequisicoes = fatura?.itens.reduce((s, i) => s + i.requisicoes, 0) ?? 0;

  return (
    <div className="fatura-detalhe">
      <div className="page-header">
        <Button
          type="button"
          icon="pi pi-arrow-left"
          rounded
          text
          aria-label="Voltar"
          className="fatura-sem-impressao"
          onClick={() => navigate(routePath('consultar-fatura'))}
        />
        <h1 className="app-page-title">Detalhe da Fatura</h1>
        <div className="fatura-sem-impressao page-actions">
          <Button type="button" label="Imprimir" icon="pi pi-print" onClick={() => window.print()} disabled={!fatura} />
          <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={() => navigate(routePath('consultar-fatura'))} />
        </div>
      </div>

      {!valido && <p className="page-hint">{message('nenhumRegistro')}</p>}
      {detalhe.isFetching && !fatura && <p className="page-hint">Carregando…</p>}

      {fatura && (
        <>
          <section className="page-panel" aria-labelledby="fatura-cliente">
            <h2 id="fatura-cliente">Cliente</h2>
            <table className="fatura-tabela">
              <thead>
                <tr>
                  <th scope="col">CNPJ</th>
                  <th scope="col">Razão Social</th>
                  <th scope="col">Período</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>{formatCnpj(fatura.cliente.cnpj)}</td>
                  <td>{fatura.cliente.razaoSocial}</td>
                  <td>{periodo(fatura)}</td>
                </tr>
              </tbody>
            </table>
            <table className="fatura-tabela fatura-situacao" aria-label="Situação da fatura">
              <thead>
                <tr>
                  <th scope="col">Situação</th>
                  <th scope="col">Vencimento</th>
                  <th scope="col">Número do DAE</th>
                  <th scope="col">Pagamento</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <td>
                    <SituacaoFatura fatura={fatura} />
                  </td>
                  <td>{vencimento(fatura)}</td>
                  <td>{fatura.dae ? String(fatura.dae.numero) : message('faturaSemDae')}</td>
                  <td>
                    {fatura.pagamento
                      ? message('faturaPagamento', { valor: brl(fatura.pagamento.valorPago), data: formatDate(fatura.pagamento.dataPagamento) })
                      : message('faturaNaoPaga')}
                  </td>
                </tr>
              </tbody>
            </table>
            <p className="fatura-nota">{NOTA_IMUNIDADE}</p>
          </section>

          <RecebimentosFatura fatura={fatura} />

          <section className="page-panel" aria-labelledby="fatura-resumo">
            <h2 id="fatura-resumo">Resumo por Serviço e UF</h2>
            <table className="fatura-tabela">
              <thead>
                <tr>
                  <th scope="col">Serviço</th>
                  <th scope="col">UF</th>
                  <th scope="col" className="fatura-num">Quantidade</th>
                  <th scope="col" className="fatura-num">Valor Unitário</th>
                  <th scope="col" className="fatura-num">Valor Consumo</th>
                </tr>
              </thead>
              <tbody>
                {fatura.itens.length === 0 && (
                  <tr>
                    <td colSpan={5}>{message('nenhumRegistro')}</td>
                  </tr>
                )}
                {fatura.itens.map((i) => (
                  <tr key={`${i.idModuloServico}-${i.uf}`}>
                    <td>{descricaoServico(i.descricao)}</td>
                    <td>{rotuloUf(i)}</td>
                    <td className="fatura-num">{quantidade(i.requisicoes)}</td>
                    <td className="fatura-num">{unitario(i.valorUnitario)}</td>
                    <td className="fatura-num">{brl(i.valorConsumo)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={2}>Total Serviços</th>
                  <td className="fatura-num">{quantidade(totalRequisicoes)}</td>
                  <td />
                  <td className="fatura-num">{brl(fatura.valorServicos)}</td>
                </tr>
                <tr>
                  <th scope="row" colSpan={4}>Assinatura</th>
                  <td className="fatura-num">{brl(fatura.valorAssinatura)}</td>
                </tr>
                <tr>
                  <th scope="row" colSpan={4}>Total</th>
                  <td className="fatura-num">{brl(fatura.valorTotal)}</td>
                </tr>
              </tfoot>
            </table>
          </section>

          <section className="page-panel" aria-labelledby="fatura-consumo">
            <h2 id="fatura-consumo">Consumo</h2>
            <table className="fatura-tabela">
              <thead>
                <tr>
                  <th scope="col">Serviço</th>
                  <th scope="col" className="fatura-num">Quantidade</th>
                  <th scope="col" className="fatura-num">Valor Consumo</th>
                </tr>
              </thead>
              <tbody>
                {grupos.map((g) => (
                  <tr key={g.idModuloServico}>
                    <td>{g.descricao}</td>
                    <td className="fatura-num">{quantidade(g.requisicoes)}</td>
                    <td className="fatura-num">{brl(g.valorConsumo)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>

          <EvidenciasFatura fatura={fatura} />
        </>
      )}
    </div>
  );
}
