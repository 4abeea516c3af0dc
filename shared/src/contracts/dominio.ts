import * as z from 'zod';
import { message } from '../messages';
import { UF_SIGLAS, type Uf } from '../domain/uf';
import { defineContract } from './define';

const ufParam = z
  .string()
  .transform((s) => s.toUpperCase())
  .refine((s): s is Uf => (UF_SIGLAS as readonly string[]).includes(s), { error: message('ufInvalida') });

export const ufs = defineContract({
  id: 'dominio.uf',
  context: 'dominio',
  method: 'GET',
  path: '/api/v1/dominio/uf',
  summary: 'Siglas das 27 unidades federativas.',
  access: 'public',
  response: z.array(z.string().length(2)),
  errors: [],
});

export const ufsCompletas = defineContract({
  id: 'dominio.ufCompleta',
  context: 'dominio',
  method: 'GET',
  path: '/api/v1/dominio/uf-completa',
  summary: 'Unidades federativas com o código IBGE.',
  access: 'public',
  response: z.array(z.object({ codigo: z.number().int(), uf: z.string().length(2), nome: z.string() })),
  errors: [],
});

export const cidades = defineContract({
  id: 'dominio.cidades',
  context: 'dominio',
  method: 'GET',
  path: '/api/v1/dominio/cidades/{uf}/{text}',
  summary: 'Municípios de uma UF cujo nome contém o texto (sem distinção de acentos ou maiúsculas).',
  access: 'public',
  params: z.object({
    uf: ufParam,
    text: z.string().trim().min(3, { error: message('cidadeTextoCurto') }).max(60),
  }),
  response: z.array(z.object({ codigo: z.number().int(), nome: z.string() })),
  errors: ['ufInvalida', 'cidadeTextoCurto'],
});
