import * as z from 'zod';
import { decimalInteger } from './common';
import { defineContract } from './define';

/**
 * The platform's service catalogue and its management by the administrator: the ordered list, the
 * active and show-on-portal flags, and the display order.
 */

const idModuloServico = decimalInteger('serviço').pipe(z.number().int().min(1).max(100_000).meta({ title: 'serviço' }));

export const servicoSchema = z.object({
  idModuloServico: z.number().int(),
  descricao: z.string(),
  ordem: z.number().int(),
  ativo: z.boolean(),
  portal: z.boolean(),
});

export const listServicos = defineContract({
  id: 'servicos.list',
  context: 'servicos',
  method: 'GET',
  path: '/api/v1/service',
  summary: 'Os serviços ativos, na ordem de exibição (seletores de serviço).',
  access: 'authenticated',
  response: z.array(z.object({ idModuloServico: z.number().int(), descricaoModuloServico: z.string() })),
  errors: [],
});

export const allServicos = defineContract({
  id: 'servicos.all',
  context: 'servicos',
  method: 'GET',
  path: '/api/v1/service/all',
  summary: 'Todos os serviços, na ordem de exibição, com os indicadores ativo e portal.',
  access: ['sefaz_admin'],
  response: z.array(servicoSchema),
  errors: [],
});

export const updateServico = defineContract({
  id: 'servicos.update',
  context: 'servicos',
  method: 'PUT',
  path: '/api/v1/service',
  summary: 'Altera um serviço (ativo, exibir no portal e, opcionalmente, a descrição).',
  access: ['sefaz_admin'],
  body: z.object({
    idModuloServico,
    descricao: z.string().trim().min(1).max(150).meta({ title: 'Descrição' }).optional(),
    ativo: z.boolean(),
    portal: z.boolean(),
  }),
  response: servicoSchema,
  errors: ['recursoNaoEncontrado'],
});

export const updateServicoStatus = defineContract({
  id: 'servicos.status',
  context: 'servicos',
  method: 'PUT',
  path: '/api/v1/service/status',
  summary: 'Ativa ou desativa um serviço.',
  access: ['sefaz_admin'],
  body: z.object({ idModuloServico, ativo: z.boolean() }),
  response: servicoSchema,
  errors: ['recursoNaoEncontrado'],
});

export const updateServicoPortal = defineContract({
  id: 'servicos.portal',
  context: 'servicos',
  method: 'PUT',
  path: '/api/v1/service/portal',
  summary: 'Exibe ou oculta um serviço no portal.',
  access: ['sefaz_admin'],
  body: z.object({ idModuloServico, portal: z.boolean() }),
  response: servicoSchema,
  errors: ['recursoNaoEncontrado'],
});

export const ordenarServicos = defineContract({
  id: 'servicos.ordem',
  context: 'servicos',
  method: 'POST',
  path: '/api/v1/service/ordem',
  summary: 'Grava a nova ordem de exibição: a lista com todos os serviços (ids), na ordem desejada.',
  access: ['sefaz_admin'],
  body: z.object({ lista: z.array(idModuloServico).min(1).max(200) }),
  response: z.array(servicoSchema),
  errors: ['ordemServicosInvalida'],
});
