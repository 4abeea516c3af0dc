import { faturamento } from '@plac/shared/contracts';
import { asCentavos, fimDoProximoMes, formatBRL, formatDate, todayInBahia, vencimentoPadraoDae } from '@plac/shared/domain';
import { message } from '@plac/shared/messages';
import { Button } from 'primereact/button';
import { Calendar } from 'primereact/calendar';
import { useState } from 'react';
import { AppDialog } from '../../components/AppDialog';
import { useApiMutation } from '../../lib/api';
import { abrirDae } from '../../lib/download';
import { toast } from '../../lib/toast';
import { AvisoVencimento, textoVencimentoDiaNaoUtil } from '../../components/AvisoVencimento';
import { periodo, type FaturaResumo } from './model';

/**
 * The row action "Imprimir DAE" of consultar-fatura (spec 2 section 2.9: only for an open invoice;
 * section 4 "DAE generation"): when the default due date (the invoice's DAE's, else the 15th of the
 * month after the reference month) is before today (Bahia), a dialog asks for a new one between today
 * and the end of next month and then generates; otherwise it generates directly. The DAE opens in a
 * new tab (its presigned URL). After a short payment it is the complementary DAE of the balance owed
 * (issue 37), which the button's name and a toast say. A due date on a non-business day (AvisoVencimento.tsx) is said under the
 * dialog's calendar as it is picked, and after a DAE is generated for one (an information toast).
 */

/** 'YYYY-MM-DD' ↔ the Calendar's local Date (a day picked, no time zone). */
const dia = (iso: string) => new Date(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
const mesIso = (f: FaturaResumo) => `${f.ano}-${String(f.mes).padStart(2, '0')}`;


export function ImprimirDae({ fatura, onEmitido }: { fatura: FaturaResumo; onEmitido?: () => void }) {
  const [pedindoData, setPedindoData] = useState(false);
  const [data, setData] = useState<Date | null>(null);
  const emitir = useApiMutation(faturamento.emitirDae);
  if (fatura.situacao !== 'A') return null;

  const hoje = todayInBahia();
  const rotulo = `Imprimir DAE ${fatura.valorRecebido > 0 ? 'do saldo devedor ' : ''}da fatura ${periodo(fatura)} de ${fatura.cliente.razaoSocial}`;

  async function gerar(dataVencimento?: string) {
    const dae = await emitir.mutateAsync({ params: { idConsumo: fatura.id }, body: dataVencimento ? { dataVencimento } : {} });
    setPedindoData(false);
    abrirDae(dae.urlDAE);
    // After a short payment the DAE is for the balance owed (issue 37): say so, with its value.
    if (dae.complementar) toast.info(message('daeComplementar', { valor: formatBRL(asCentavos(dae.valor)) }));
    const aviso = textoVencimentoDiaNaoUtil(dae.dtVencimento);
    if (aviso) toast.info(aviso);
    onEmitido?.();
  }

  function imprimir() {
    if (vencimentoPadraoDae(mesIso(fatura), fatura.dae?.dtVencimento) < hoje) {
      setData(null);
      setPedindoData(true);
    } else {
      void gerar().catch(() => undefined);
    }
  }

  return (
    <>
      <Button
        type="button"
        icon="pi pi-print"
        rounded
        text
        aria-label={rotulo}
        tooltip="Imprimir DAE"
        tooltipOptions={{ position: 'top' }}
        loading={emitir.isPending && !pedindoData}
        onClick={imprimir}
      />
      <AppDialog header={message('daeNovoVencimento')} visible={pedindoData} onHide={() => setPedindoData(false)} style={{ width: 'min(28rem, 95vw)' }} modal>
        <form
          className="page-field"
          aria-label="Nova data de vencimento do DAE"
          onSubmit={(e) => {
            e.preventDefault();
            if (!data) {
              toast.warn(message('campoObrigatorio', { field: 'Data de Vencimento' }));
              return;
            }
            void gerar(iso(data)).catch(() => undefined);
          }}
          noValidate
        >
          <p>
            A data de vencimento {formatDate(vencimentoPadraoDae(mesIso(fatura), fatura.dae?.dtVencimento))} já passou. Escolha uma data entre {formatDate(hoje)} e{' '}
            {formatDate(fimDoProximoMes(hoje))}.
          </p>
          <label htmlFor={`dae-vencimento-${fatura.id}`}>Data de Vencimento</label>
          <Calendar
            inputId={`dae-vencimento-${fatura.id}`}
            value={data}
            onChange={(e) => setData(e.value instanceof Date ? e.value : null)}
            minDate={dia(hoje)}
            maxDate={dia(fimDoProximoMes(hoje))}
            dateFormat="dd/mm/yy"
            showIcon
          />
          <AvisoVencimento dtVencimento={data ? iso(data) : null} id={`dae-vencimento-aviso-${fatura.id}`} />
          <div className="page-actions">
            <Button type="button" label="Cancelar" severity="secondary" outlined onClick={() => setPedindoData(false)} />
            <Button type="submit" label="Gerar DAE" icon="pi pi-print" loading={emitir.isPending} />
          </div>
        </form>
      </AppDialog>
    </>
  );
}
