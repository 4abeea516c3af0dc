import './relatorio-banner.css';
import { message } from '@plac/shared/messages';
import { useEffect, useState } from 'react';
import { setReportProcessing, useSession } from '../../lib/session';
import { decorrido } from './model';
import { relatorioEmAndamento } from '../../lib/relatorio';

/**
 * 'Processando relatório de consumo' with the client's name, the elapsed minutes and seconds, refreshed
 * every second while the report runs, and the job's real progress once the server has answered (lines
 * written of the month's total, as a progress bar too); gone when it ends, however it ends.
 */
/** 40000 → '40.000' (pt-BR thousands separator). */
const INTEIRO = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });
const formatInteger = (n: number) => INTEIRO.format(n);

export function RelatorioConsumoBanner() {
  const { reportProcessing } = useSession();
  const [agora, setAgora] = useState(() => Date.now());

  useEffect(() => {
    if (!reportProcessing) return;
    // A flag restored from the session after a reload: no report of this page is running.
    if (!relatorioEmAndamento()) {
      setReportProcessing(null);
      return;
    }
    const timer = setInterval(() => setAgora(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [reportProcessing]);

  if (!reportProcessing) return null;
  return (
    <div className="consumo-banner" role="status" aria-live="polite">
      <i className="pi pi-spin pi-spinner" aria-hidden="true" />
      <span>
        <strong>{message('relatorioConsumoProcessando')}</strong> — {reportProcessing.clienteNome} —{' '}
        <span aria-label="Tempo decorrido">{decorrido(Math.max(0, agora - reportProcessing.startedAt))}</span>
        {reportProcessing.linhas !== undefined && reportProcessing.total !== undefined && (
          <>
            {' — '}
            <span aria-label="Progresso do relatório">
              {message('relatorioConsumoProgresso', { linhas: formatInteger(reportProcessing.linhas), total: formatInteger(Math.max(reportProcessing.total, reportProcessing.linhas)) })}
            </span>{' '}
            <progress
              className="consumo-banner-progresso"
              aria-label="Linhas escritas"
              max={Math.max(reportProcessing.total, reportProcessing.linhas, 1)}
              value={reportProcessing.linhas}
            />
          </>
        )}
      </span>
    </div>
  );
}
