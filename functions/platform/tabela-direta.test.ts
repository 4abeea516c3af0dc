import { Entity } from 'electrodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODELO_CESSAO } from '../cessao/modelos';
import { MODELO_CLIENTE, MODELO_CLIENTE_CNPJ } from '../clientes/modelos';
import {
  MODELO_CLIENTE_DO_MES,
  MODELO_CONSUMO_SERVICO,
  MODELO_CONTADOR,
  MODELO_DIARIO,
  MODELO_NAO_ENCONTRADA,
  MODELO_REQUISICAO,
} from '../consumo/modelos';
import { MODELO_FATE } from '../fate/modelos';
import { MODELO_SERVICO } from '../servicos/modelos';
import { MODELO_CONTADOR_DE_COTA } from './rate-limit';
import { chave, consultaDaParticao, criar, lido, partesDoUpsert, type Modelo } from './tabela-direta';

/**
 * tabela-direta.ts writes and reads ElectroDB's items without ElectroDB: every model it is handed is
 * held here to the requests ElectroDB itself builds for it (`params()`), key by key and expression by
 * expression, with mixed-case values (keys are lower-cased, but for a 'none' casing) and numbers.
 */
const MODELOS: Record<string, Modelo> = {
  MODELO_CESSAO,
  MODELO_CLIENTE,
  MODELO_CLIENTE_CNPJ,
  MODELO_CLIENTE_DO_MES,
  MODELO_CONSUMO_SERVICO,
  MODELO_CONTADOR,
  MODELO_CONTADOR_DE_COTA,
  MODELO_DIARIO,
  MODELO_FATE,
  MODELO_NAO_ENCONTRADA,
  MODELO_REQUISICAO,
  MODELO_SERVICO,
};

/** A value of every attribute, of its type: text with upper case, numbers, the first of an enum. */
function amostra(m: Modelo): Record<string, unknown> {
  const v: Record<string, unknown> = {};
  for (const [nome, a] of Object.entries(m.attributes)) {
    const tipo = a.type;
    if (Array.isArray(tipo)) v[nome] = tipo[0];
    else if (tipo === 'string') v[nome] = `Valor-${nome}-ÁB`;
    else if (tipo === 'number') v[nome] = nome.length;
    else if (tipo === 'boolean') v[nome] = true;
    else if (tipo === 'list') v[nome] = [];
    else if (tipo === 'set') v[nome] = [3, 5];
  }
  return v;
}

/** Sets as arrays, for comparing: ours are Sets, ElectroDB's (built without a client) its DynamoDBSet wrapper. */
const comoConjuntos = (valores: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(valores).map(([k, x]) => {
      const envolto = x as { wrapperName?: string; values?: unknown[] } | null;
      return [k, x instanceof Set ? [...x] : envolto?.wrapperName === 'Set' ? envolto.values : x];
    }),
  );

beforeAll(() => {
  process.env.TABLE_NAME ??= 'T';
});

describe.each(Object.entries(MODELOS))('%s: the same requests as ElectroDB', (_, modelo) => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any model, as ElectroDB's untyped constructor takes it
  const entidade = () => new Entity(modelo as any, { table: process.env.TABLE_NAME! });
  const v = amostra(modelo);

  it('the key', () => {
    expect(chave(modelo, v)).toEqual(entidade().get(v).params().Key);
  });

  it('a create: the whole item with its keys and marks, on condition that it is new', () => {
    const { Put } = criar(modelo, v);
    const eletro = entidade().create(v).params();
    expect({ ...Put, Item: comoConjuntos(Put!.Item!) }).toEqual({ ...eletro, Item: comoConjuntos(eletro.Item) });
  });

  it('an upsert that sets and adds', () => {
    const numeros = Object.entries(modelo.attributes).filter(([n, a]) => a.type === 'number' && !Object.values(modelo.indexes).some((i) => [...i.pk.composite, ...i.sk.composite].includes(n)));
    const [somado] = numeros.map(([n]) => n);
    const semSomado = Object.fromEntries(Object.entries(v).filter(([n]) => n !== somado));
    const add = somado ? { [somado]: 2 } : {};
    const eletro = entidade().upsert(semSomado).add(add).params();
    const direto = partesDoUpsert(modelo, semSomado, { add });
    expect({ ...direto, ExpressionAttributeValues: comoConjuntos(direto.ExpressionAttributeValues) }).toEqual({
      ...eletro,
      ExpressionAttributeValues: comoConjuntos(eletro.ExpressionAttributeValues),
    });
  });

  it.each(Object.keys(modelo.indexes))("a Query of one partition of '%s'", (indice) => {
    const pk = modelo.indexes[indice]!.pk.composite;
    const soPk = Object.fromEntries(Object.entries(v).filter(([n]) => pk.includes(n)));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the index's query by its name
    expect(consultaDaParticao(modelo, indice, soPk)).toEqual((entidade().query as any)[indice](soPk).params());
  });

  it("a read answers the model's attributes only, a set as an array", () => {
    const item = { ...criar(modelo, v).Put!.Item!, alheio: 'x' };
    expect(lido(modelo, item)).toEqual(v);
  });
});
