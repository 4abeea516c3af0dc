import * as cessao from '@plac/shared/contracts/cessao';
import { httpApi, Reply } from '../platform/http';
import * as service from './service';

export const handler = httpApi(cessao, {
  // 201 for a new registration; 200 for the same one repeated by its client (idempotent retry).
  registrarCessao: async ({ body, principal }) => {
    const { criada, resposta } = await service.registrar(principal, body);
    return criada ? resposta : new Reply(resposta, { status: 200 });
  },
  listarCessoes: async ({ params, principal }) => service.listar(principal, params.chave),
});
