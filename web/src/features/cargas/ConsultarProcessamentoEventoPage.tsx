import { ProcessamentoMonitor } from './ProcessamentoMonitor';

/** consultar-processamento-evento (sefaz_admin): the loads of financial events. */
export default function ConsultarProcessamentoEventoPage() {
  return <ProcessamentoMonitor tipo="eventos" />;
}
