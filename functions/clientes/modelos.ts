import type { Entity, EntityItem } from 'electrodb';

/** A client company and its CNPJ's claim, their ElectroDB models: plain data, so paths without the table layer read them too (tabela-direta.ts). */

export const SITUACOES = ['A', 'E', 'C', 'I', 'D', 'N', 'S'] as const;
export const TIPOS = ['ESF', 'IMF', 'SHOPPING'] as const;

/** Kept: a client company is the platform's reference data; its end is its situation, set by an administrator. */
export const MODELO_CLIENTE = {
  model: { entity: 'cliente', version: '1', service: 'clientes' },
  attributes: {
    clienteId: { type: 'string', required: true },
    cnpj: { type: 'string', required: true },
    razaoSocial: { type: 'string', required: true },
    razaoFolded: { type: 'string', required: true },
    tipoCliente: { type: TIPOS, required: true },
    situacao: { type: SITUACOES, required: true },
    email: { type: 'string', required: true },
    logradouro: { type: 'string' },
    numero: { type: 'string' },
    complemento: { type: 'string' },
    bairro: { type: 'string' },
    uf: { type: 'string' },
    cidade: { type: 'string' },
    cep: { type: 'string' },
    telefone: { type: 'string' },
    nomeResponsavel: { type: 'string' },
    categoria: { type: ['PRIVADA', 'PUBLICA'] as const },
    /** Start of the period in which the client's users may log in with a password (YYYY-MM-DD). */
    inicioSemCertificado: { type: 'string' },
    /** Days of that period for this client; absent: the platform parameter (30 by default). */
    prazoSemCertificadoDias: { type: 'number' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    updatedBy: { type: 'string' },
  },
  indexes: {
    byId: { pk: { field: 'pk', composite: ['clienteId'] }, sk: { field: 'sk', composite: [] } },
    all: { index: 'gsi1', pk: { field: 'gsi1pk', composite: [] }, sk: { field: 'gsi1sk', composite: ['razaoFolded', 'clienteId'] } },
    // The clients of one situation by name (issue 38): those in evaluation, which the billing screens
    // leave out, are one key read instead of the whole registry. A client's every write sets it (the
    // writes carry the whole record); clients written before are indexed by infra/migrations/clientes-situacao.ts.
    bySituacao: { index: 'gsi2', pk: { field: 'gsi2pk', composite: ['situacao'] }, sk: { field: 'gsi2sk', composite: ['razaoFolded', 'clienteId'] } },
  },
} as const;

/** Kept: the uniqueness claim of a client's CNPJ, as long as the client. */
export const MODELO_CLIENTE_CNPJ = {
  model: { entity: 'clienteCnpj', version: '1', service: 'clientes' },
  attributes: { cnpj: { type: 'string', required: true }, clienteId: { type: 'string', required: true } },
  indexes: { byValue: { pk: { field: 'pk', composite: ['cnpj'] }, sk: { field: 'sk', composite: [] } } },
} as const;
/** Kept: the platform's parameters (a handful), edited by an administrator. */
export const MODELO_PARAMETRO = {
  model: { entity: 'parametro', version: '1', service: 'clientes' },
  attributes: {
    nome: { type: 'string', required: true },
    valor: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
  },
  indexes: { byNome: { pk: { field: 'pk', composite: ['nome'] }, sk: { field: 'sk', composite: [] } } },
} as const;

/** An item of the model as ElectroDB answers it (a type only: nothing of ElectroDB is loaded for it). */
export type ClienteRecord = EntityItem<Entity<string, string, string, typeof MODELO_CLIENTE>>;
