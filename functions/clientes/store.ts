import { Entity, type EntityItem } from 'electrodb';
import { tableConfig } from '../platform/table';

/**
 * Client companies. Access patterns: by id (key); all, ordered by folded company name (gsi1, one
 * partition — the list of clients is small enough); the CNPJ's uniqueness is the client issue's.
 */
export const SITUACOES = ['A', 'E', 'C', 'I', 'D', 'N', 'S'] as const;
export type Situacao = (typeof SITUACOES)[number];
export const TIPOS = ['ESF', 'IMF', 'SHOPPING'] as const;

const clientes = () =>
  new Entity(
    {
      model: { entity: 'cliente', version: '1', service: 'clientes' },
      attributes: {
        clienteId: { type: 'string', required: true },
        cnpj: { type: 'string', required: true },
        razaoSocial: { type: 'string', required: true },
        razaoFolded: { type: 'string', required: true },
        tipoCliente: { type: TIPOS, required: true },
        situacao: { type: SITUACOES, required: true },
        email: { type: 'string', required: true },
        uf: { type: 'string' },
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
      },
    },
    tableConfig(),
  );

const parametros = () =>
  new Entity(
    {
      model: { entity: 'parametro', version: '1', service: 'clientes' },
      attributes: {
        nome: { type: 'string', required: true },
        valor: { type: 'string', required: true },
        updatedAt: { type: 'string', required: true },
      },
      indexes: { byNome: { pk: { field: 'pk', composite: ['nome'] }, sk: { field: 'sk', composite: [] } } },
    },
    tableConfig(),
  );

let clienteEntity: ReturnType<typeof clientes> | undefined;
let parametroEntity: ReturnType<typeof parametros> | undefined;
export const clienteTable = () => (clienteEntity ??= clientes());
export const parametroTable = () => (parametroEntity ??= parametros());

export type ClienteRecord = EntityItem<ReturnType<typeof clientes>>;

export async function findCliente(clienteId: string) {
  const { data } = await clienteTable().get({ clienteId }).go();
  return data;
}

export async function listClientes() {
  const { data } = await clienteTable().query.all({}).go({ pages: 'all' });
  return data;
}

export async function putCliente(record: ClienteRecord) {
  await clienteTable().put(record).go();
}

export async function readParametro(nome: string): Promise<string | undefined> {
  const { data } = await parametroTable().get({ nome }).go();
  return data?.valor;
}
