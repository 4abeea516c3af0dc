import './relatorio-banner.css';
import { message } from '@plac/shared/messages';
import { useEffect, useState } from 'react';
import { setReportProcessing, useSession } from '../../lib/session';
import { decorrido } from './model';
import { relatorioEmAndamento } from './relatorio';

/**
 * 'Processando relatório de consumo' with the client's name and the elapsed minutes and seconds,
 * refreshed every second while the report runs; gone when it ends, however it ends.
 */
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
      </span>
    </div>
  );
}
