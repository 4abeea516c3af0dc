import * as cessao from '@plac/shared/contracts/cessao';
import { exigirCotaDoIntegrador } from '../platform/cota-integrador';
import { httpApi, Reply } from '../platform/http';
import * as service from './service';

/** Every route counts against the integrator's quota first (the whole context is on the mutual-TLS domain). */
export const handler = httpApi(cessao, {
  // 201 for a new registration; 200 for the same one repeated by its client (idempotent retry).
  registrarCessao: async (r) => {
    await exigirCotaDoIntegrador(r);
    const { criada, resposta } = await service.registrar(r.principal, r.body);
    return criada ? resposta : new Reply(resposta, { status: 200 });
  },
  listarCessoes: async (r) => {
    await exigirCotaDoIntegrador(r);
    return service.listar(r.principal, r.params.chave);
  },
});
