import * as monitoramento from '@plac/shared/contracts/monitoramento';
import { exigirCotaDoIntegrador } from '../platform/cota-integrador';
import { httpApi } from '../platform/http';
import * as service from './service';

/** Every route counts against the integrator's quota first (on the mutual-TLS domain). */
export const handler = httpApi(monitoramento, {
  listarChavesMonitoradas: async (r) => (await exigirCotaDoIntegrador(r), service.listar(r.principal, r.query)),
  cadastrarChaveMonitorada: async (r) => (await exigirCotaDoIntegrador(r), service.cadastrar(r.principal, r.body)),
  removerChaveMonitorada: async (r) => (await exigirCotaDoIntegrador(r), service.remover(r.principal, r.params.chave, r.query.idCliente)),
});
