import { asCentavos, formatBRL, formatDate } from '@plac/shared/domain';
import type { FaturaDetalhe } from './model';

/**
 * The invoice's payments as a collection system keeps them (issue 37): what was billed, each payment
 * received (day, bank, file, amount, and how it was applied: surcharge first, then the balance, the rest
 * an overpayment to refund), the surcharge the balance owes if paid today, and the balance still owed.
 * Shown once anything was received.
 */
export function RecebimentosFatura({ fatura }: { fatura: FaturaDetalhe }) {
  if (fatura.recebimentos.length === 0) return null;
  const brl = (centavos: number) => formatBRL(asCentavos(centavos));
  return (
    <section className="page-panel" aria-labelledby="fatura-recebimentos">
      <h2 id="fatura-recebimentos">Pagamentos recebidos</h2>
      <table className="fatura-tabela">
        <thead>
          <tr>
            <th scope="col">Data do Pagamento</th>
            <th scope="col">Banco</th>
            <th scope="col">Arquivo de Retorno</th>
            <th scope="col" className="fatura-num">Valor Pago</th>
            <th scope="col" className="fatura-num">Acréscimo</th>
            <th scope="col" className="fatura-num">Amortizado</th>
            <th scope="col" className="fatura-num">Excedente</th>
          </tr>
        </thead>
        <tbody>
          {fatura.recebimentos.map((r, i) => (
            <tr key={`${i}-${r.dataPagamento}-${r.valorPago}`}>
              <td>{formatDate(r.dataPagamento)}</td>
              <td>{r.banco ? `${r.banco} ${r.nomeBanco}`.trim() : '-'}</td>
              <td>{r.nomeArquivo || '-'}</td>
              <td className="fatura-num">{brl(r.valorPago)}</td>
              <td className="fatura-num">{brl(r.valorAcrescimo)}</td>
              <td className="fatura-num">{brl(r.valorAmortizado)}</td>
              <td className="fatura-num">{brl(r.valorExcedente)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="fatura-tabela" aria-label="Saldo da fatura">
        <tbody>
          <tr>
            <th scope="row">Valor faturado</th>
            <td className="fatura-num">{brl(fatura.valorTotal)}</td>
          </tr>
          <tr>
            <th scope="row">Total amortizado</th>
            <td className="fatura-num">{brl(fatura.valorRecebido)}</td>
          </tr>
          <tr>
            <th scope="row">Acréscimo sobre o saldo (pagamento hoje)</th>
            <td className="fatura-num">{brl(fatura.acrescimoSobreSaldo)}</td>
          </tr>
          <tr>
            <th scope="row">Saldo devedor</th>
            <td className="fatura-num">{brl(fatura.saldoDevedor)}</td>
          </tr>
          {fatura.valorExcedente > 0 && (
            <tr>
              <th scope="row">Recebido a maior (a devolver)</th>
              <td className="fatura-num">{brl(fatura.valorExcedente)}</td>
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}
