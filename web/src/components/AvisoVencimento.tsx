import './aviso-vencimento.css';
import { formatDate, vencimentoEmDiaNaoUtil } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';

/**
 * The hint for a DAE due date that falls on a non-business day of the issuing state (a weekend, a
 * national or bank holiday, a Bahia holiday: shared/src/domain/feriados.ts): it is payable without
 * surcharge until the next business day (CTN art. 210, sole paragraph), and the screen says so.
 */

/** The hint's text, or null when the due date is a business day. */
export function textoVencimentoDiaNaoUtil(dtVencimento: string): string | null {
  const v = vencimentoEmDiaNaoUtil(dtVencimento);
  return v ? message('daeVencimentoDiaNaoUtil', { motivo: v.motivo, data: formatDate(v.pagavelAte) }) : null;
}

export function AvisoVencimento({ dtVencimento, id }: { dtVencimento: string | null; id?: string }) {
  const texto = dtVencimento ? textoVencimentoDiaNaoUtil(dtVencimento) : null;
  if (!texto) return null;
  return (
    <small className="dae-aviso-vencimento" id={id} role="note">
      {texto}
    </small>
  );
}
