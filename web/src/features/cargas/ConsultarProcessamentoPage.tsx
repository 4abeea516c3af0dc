import { ProcessamentoMonitor } from './ProcessamentoMonitor';

/** consultar-processamento (sefaz_admin, cliente_monitoramento): the loads of Fat-e documents. */
export default function ConsultarProcessamentoPage() {
  return <ProcessamentoMonitor tipo="documentos" />;
}
