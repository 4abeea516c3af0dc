import { z } from 'zod';
import { defineContract } from './define';

/** Client companies (spec 1 and 2). The client issue fills in registration, the list and the form. */

export const clienteResumoSchema = z.object({
  id: z.string(),
  cnpj: z.string(),
  razao_social: z.string(),
  tipo_cliente: z.enum(['ESF', 'IMF', 'SHOPPING']),
  situacao: z.enum(['A', 'E', 'C', 'I', 'D', 'N', 'S']),
});

export const allClientes = defineContract({
  id: 'clientes.all',
  context: 'clientes',
  method: 'GET',
  path: '/api/v1/cliente/get-all-cliente',
  summary: 'Todos os clientes (para seletores), por razão social.',
  access: ['sefaz_admin', 'sefaz_gestor'],
  response: z.array(clienteResumoSchema),
  errors: [],
});
