/**
 * The metering context's front door: charging a look-up or a metered use (each once per key and month),
 * the client's month counters (what billing prices), the request log a page at a time (what the evidence
 * archive copies), and the report jobs other contexts start (the invoice's detail ZIP, the archived
 * evidence). Other contexts import only this module (functions/platform/dependencies.test.ts).
 */
export { cobrarConsulta, registrarNaoEncontrada } from './cobranca';
export { medirUso } from './service';
export {
  /** A client's month counters per service and UF: what billing prices. */
  contadoresDoCliente as consumoDoCliente,
  /** A page of a client's month of charged requests, merged by instant: what the evidence archive copies. */
  paginaDeRequisicoes as paginaDoLog,
  /** A client's month of charged requests per service, from its counters: what the month's invoice priced. */
  contadoresPorServico as requisicoesDoMesPorServico,
} from './store';
export { iniciar as iniciarRelatorio, vista as vistaDoRelatorio, type VistaRelatorio } from './relatorio-job';
