import { Entity } from 'electrodb';
import { tableConfig } from '../platform/table';

/**
 * Municipalities, one item per UF (access pattern: get the cities of a UF by key). The largest UF
 * (MG, 853 cities) is about 30 KB, far below the 400 KB item limit, so one GetItem serves a search.
 * Kept: reference data (27 items), rewritten by the reference load, not grown by use.
 */
const municipios = () =>
  new Entity(
    {
      model: { entity: 'municipios', version: '1', service: 'dominio' },
      attributes: {
        uf: { type: 'string', required: true },
        cidades: {
          type: 'list',
          required: true,
          items: {
            type: 'map',
            properties: { codigo: { type: 'number', required: true }, nome: { type: 'string', required: true } },
          },
        },
        carregadoEm: { type: 'string', required: true },
      },
      indexes: {
        byUf: { pk: { field: 'pk', composite: ['uf'] }, sk: { field: 'sk', composite: [] } },
      },
    },
    tableConfig(),
  );

let entity: ReturnType<typeof municipios> | undefined;
const table = () => (entity ??= municipios());

export interface Cidade {
  codigo: number;
  nome: string;
}

export async function cidadesDaUf(uf: string): Promise<Cidade[] | null> {
  const { data } = await table().get({ uf }).go();
  return data?.cidades ?? null;
}

export async function gravarCidadesDaUf(uf: string, cidades: Cidade[], carregadoEm: string): Promise<void> {
  await table().put({ uf, cidades, carregadoEm }).go();
}
