import './faturas.css';
import { situacaoExibida, type FaturaResumo } from './model';

/** An invoice's status: 'Pago parcialmente' with each short payment under it ('R$ X em dd/mm/aaaa'; model.ts situacaoExibida). */
export function SituacaoFatura({ fatura }: { fatura: Pick<FaturaResumo, 'situacao' | 'pagamentosParciais'> }) {
  const { rotulo, parciais } = situacaoExibida(fatura);
  return (
    <>
      {rotulo}
      {parciais.map((p, i) => (
        <small key={`${i}-${p}`} className="fatura-parcial">
          {p}
        </small>
      ))}
    </>
  );
}
