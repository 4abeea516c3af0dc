import '../../components/page-layout.css';
import { routePath } from '@plac/shared/access';
import { rateio } from '@plac/shared/contracts';
import { formatBRL, formatCnpj, formatMonth, type Centavos } from '@plac/shared/domain';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { Column } from 'primereact/column';
import { useNavigate, useParams } from 'react-router-dom';
import { ListError, ListTable, moneyColumn } from '../../components/ListPage';
import { useApiQuery } from '../../lib/api';

/**
 * consulta-pagamento-servico-detalhe (spec 2, 2.12), printable: the client, a note, the lines per
 * service and UF with each UF's total (unit values with 2 decimals); the admin sees every UF and the
 * card 'Consumo Sumarizado', a manager only the own UF's lines.
 */
const brl = (v: number) => formatBRL(v as Centavos);
/** Thousandths of a real shown with 2 decimals (the payment detail's precision). */
const unitario = (milesimos: number) => `R$ ${(Math.round(milesimos / 10) / 100).toFixed(2).replace('.', ',')}`;

/**
 * A UF's footer: its services, its part of the subscription and of the surcharge, and their sum, which is
 * the list row's 'Total' (issue 28 item 3: 'Total BA' was the services alone).
 */
function rodapeUf(u: { uf: string; valorServicos: number; valorAssinatura: number; valorAcrescimo: number; total: number }) {
  return `Serviços: ${brl(u.valorServicos)} · Assinatura (parte da UF): ${brl(u.valorAssinatura)} · Acréscimo (parte da UF): ${brl(u.valorAcrescimo)} · Total ${u.uf || '-'}: ${brl(u.total)}`;
}

export default function PagamentoServicoDetalhePage() {
  const navigate = useNavigate();
  const { idConsumo = '', ufConsumo = '' } = useParams();
  const q = useApiQuery(rateio.detalhePagamento, { params: { idConsumo, ufConsumo } });
  const d = q.data;
  return (
    <>
      <div className="page-header">
        <h1 className="app-page-title">Detalhe do Pagamento</h1>
        <div className="page-actions">
          <Button type="button" label="Imprimir" icon="pi pi-print" onClick={() => window.print()} />
          <Button type="button" label="Voltar" icon="pi pi-arrow-left" severity="secondary" outlined onClick={() => navigate(routePath('consulta-pagamento-servico'))} />
        </div>
      </div>
      {q.isError && <ListError error={q.error} onRetry={() => void q.refetch()} />}
      {d && (
        <>
          <p>
            <strong>Cliente:</strong> {d.cliente.razaoSocial} ({formatCnpj(d.cliente.cnpj)}) — <strong>Mês de referência:</strong> {formatMonth(d.mesReferencia)} — <strong>Situação:</strong> {d.situacaoTexto}
          </p>
          <p className="page-note">Valores unitários com 2 casas decimais; o total de cada UF é a soma dos seus serviços e das suas partes da assinatura e do acréscimo, o mesmo da linha da lista.</p>
          {d.ufs.map((u) => (
            <ListTable key={u.uf} label={`Itens da UF ${u.uf}`} rows={u.itens} query={q} paging={{ kind: 'none' }} table={{ header: `UF ${u.uf || '-'}`, footer: rodapeUf(u) }}>
              <Column header="Serviço" field="descricao" />
              <Column header="Requisições" body={(i: { requisicoes: number }) => i.requisicoes.toLocaleString('pt-BR')} />
              <Column header="Valor unitário" body={(i: { valorUnitario: number }) => unitario(i.valorUnitario)} align="right" bodyClassName="list-money" />
              <Column header="Valor" {...moneyColumn((i: { valor: number }) => i.valor)} />
            </ListTable>
          ))}
          {d.sumarizado && (
            <Card title="Consumo Sumarizado">
              <ListTable label="Consumo Sumarizado" rows={d.sumarizado} query={q} paging={{ kind: 'none' }}>
                <Column header="Serviço" field="descricao" />
                <Column header="Requisições" body={(i: { requisicoes: number }) => i.requisicoes.toLocaleString('pt-BR')} />
                <Column header="Valor" {...moneyColumn((i: { valor: number }) => i.valor)} />
              </ListTable>
            </Card>
          )}
        </>
      )}
    </>
  );
}
