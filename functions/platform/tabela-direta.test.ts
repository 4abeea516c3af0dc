import { Entity } from 'electrodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { MODELO_TENTATIVA } from '../auth/attempts';
import * as auth from '../auth/modelos';
import * as cessao from '../cessao/modelos';
import * as clientes from '../clientes/modelos';
import * as consumo from '../consumo/modelos';
import * as fate from '../fate/modelos';
import * as servicos from '../servicos/modelos';
import * as users from '../users/modelos';
import { MODELO_SESSAO } from './auth/sessions';
import { MODELO_CONTADOR_DE_COTA } from './rate-limit';
import { chave, consultaDaParticao, criar, lido, partesDoPatch, partesDoUpsert, type Modelo } from './tabela-direta';

/**
 * tabela-direta.ts writes and reads ElectroDB's items without ElectroDB: every model it is handed is
 * held here to the requests ElectroDB itself builds for it (`params()`), key by key and expression by
 * expression, with mixed-case values (keys are lower-cased, but for a 'none' casing) and numbers.
 */
/** Every model of the contexts' modelos.ts (a model added there is held here too), and the three kept in place. */
const MODELOS: Record<string, Modelo> = {
  ...Object.fromEntries(
    [auth, cessao, clientes, consumo, fate, servicos, users].flatMap((m) => Object.entries(m).filter(([nome]) => nome.startsWith('MODELO_')) as [string, Modelo][]),
  ),
  MODELO_CONTADOR_DE_COTA,
  MODELO_SESSAO,
  MODELO_TENTATIVA,
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
    else if (tipo === 'set') v[nome] = a.items === 'string' ? ['a', 'B'] : [3, 5];
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

/** A model with an attribute ElectroDB derives on every write (a user's list and group): read only, never written directly. */
const derivaAtributos = (m: Modelo) => Object.values(m.attributes).some((a) => a.watch !== undefined || a.set !== undefined);

it('refuses to write a model whose attributes ElectroDB derives, and reads it', () => {
  const v = amostra(users.MODELO_USUARIO);
  expect(() => criar(users.MODELO_USUARIO, v)).toThrow(/derives/);
  expect(() => partesDoUpsert(users.MODELO_USUARIO, v, {})).toThrow(/derives/);
  expect(() => partesDoPatch(users.MODELO_USUARIO, v, { name: 'x' })).toThrow(/derives/);
  expect(chave(users.MODELO_USUARIO, v)).toEqual(new Entity(users.MODELO_USUARIO, { table: 'T' }).get({ userId: String(v.userId) }).params().Key);
});

describe.each(Object.entries(MODELOS))('%s: the same requests as ElectroDB', (_, modelo) => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any model, as ElectroDB's untyped constructor takes it
  const entidade = () => new Entity(modelo as any, { table: process.env.TABLE_NAME! });
  const v = amostra(modelo);

  it('the key', () => {
    expect(chave(modelo, v)).toEqual(entidade().get(v).params().Key);
  });

  // The writes of a model ElectroDB derives attributes of are refused (the test above), not compared.
  const escrita = (nome: string, teste: () => void) => {
    if (!derivaAtributos(modelo)) it(nome, teste);
  };

  escrita('a create: the whole item with its keys and marks, on condition that it is new', () => {
    const { Put } = criar(modelo, v);
    const eletro = entidade().create(v).params();
    expect({ ...Put, Item: comoConjuntos(Put!.Item!) }).toEqual({ ...eletro, Item: comoConjuntos(eletro.Item) });
  });

  escrita("a create of only the required attributes: the others' defaults, as ElectroDB sets them", () => {
    const obrigatorios = Object.fromEntries(Object.entries(v).filter(([n]) => modelo.attributes[n]?.required && modelo.attributes[n]?.default === undefined));
    const { Put } = criar(modelo, obrigatorios);
    const eletro = entidade().create(obrigatorios).params();
    expect({ ...Put, Item: comoConjuntos(Put!.Item!) }).toEqual({ ...eletro, Item: comoConjuntos(eletro.Item) });
    const [algum] = Object.keys(obrigatorios);
    if (algum) expect(() => criar(modelo, { ...obrigatorios, [algum]: undefined })).toThrow(/requires/);
  });

  escrita('an upsert that sets and adds', () => {
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

  escrita('a patch of the attributes outside every key, and a delete', () => {
    const foraDasChaves = Object.keys(modelo.attributes).filter((n) => !Object.values(modelo.indexes).some((i) => [...i.pk.composite, ...i.sk.composite].includes(n)));
    const mudanca = Object.fromEntries(foraDasChaves.slice(0, 2).map((n) => [n, v[n]]));
    if (Object.keys(mudanca).length > 0) {
      const direto = partesDoPatch(modelo, v, mudanca);
      const eletro = entidade().patch(v).set(mudanca).params();
      expect({ ...direto, ExpressionAttributeValues: comoConjuntos(direto.ExpressionAttributeValues) }).toEqual({ ...eletro, ExpressionAttributeValues: comoConjuntos(eletro.ExpressionAttributeValues) });
    }
    const emChave = Object.values(modelo.indexes).flatMap((i) => [...i.pk.composite, ...i.sk.composite]);
    expect(() => partesDoPatch(modelo, v, { [emChave[0]!]: v[emChave[0]!] })).toThrow(/index key/);
    expect({ Key: chave(modelo, v), TableName: process.env.TABLE_NAME }).toEqual(entidade().delete(v).params());
  });

  it.each(Object.keys(modelo.indexes))("a Query of one partition of '%s'", (indice) => {
    const pk = modelo.indexes[indice]!.pk.composite;
    const soPk = Object.fromEntries(Object.entries(v).filter(([n]) => pk.includes(n)));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the index's query by its name
    expect(consultaDaParticao(modelo, indice, soPk)).toEqual((entidade().query as any)[indice](soPk).params());
  });

  it("a read answers the model's attributes only, a set as an array", () => {
    const item = { ...v, ...chave(modelo, v), __edb_e__: modelo.model.entity, __edb_v__: modelo.model.version, alheio: 'x' };
    expect(lido(modelo, item)).toEqual(v);
  });
});
