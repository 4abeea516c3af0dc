import { Entity, Service } from 'electrodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { entidadeSobDemanda, servicoSobDemanda } from './entidade-sob-demanda';

const modelo = {
  model: { entity: 'exemplo', version: '1', service: 'teste' },
  attributes: { id: { type: 'string', required: true }, nome: { type: 'string' } },
  indexes: { byId: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } } },
} as const;

describe('entidadeSobDemanda', () => {
  it('builds the entity on its first use, once, and not when it is declared', () => {
    let construcoes = 0;
    const exemplo = entidadeSobDemanda(() => {
      construcoes++;
      return new Entity(modelo, { table: 'plac-app' });
    });
    expect(construcoes).toBe(0);
    const params = exemplo.get({ id: 'a' }).params();
    exemplo.put({ id: 'b', nome: 'B' }).params();
    expect(construcoes).toBe(1);
    expect(params).toEqual(new Entity(modelo, { table: 'plac-app' }).get({ id: 'a' }).params());
  });

  it('is joined by a Service as the entity itself: its table and queries are the eager entity’s', () => {
    const preguicosa = new Service({ exemplo: entidadeSobDemanda(() => new Entity(modelo)) }, { table: 'plac-app' });
    const ansiosa = new Service({ exemplo: new Entity(modelo) }, { table: 'plac-app' });
    const item = { id: 'c', nome: 'C' };
    expect(preguicosa.entities.exemplo.put(item).params()).toEqual(ansiosa.entities.exemplo.put(item).params());
    expect(preguicosa.entities.exemplo.query.byId({ id: 'c' }).params()).toEqual(ansiosa.entities.exemplo.query.byId({ id: 'c' }).params());
    expect(preguicosa.entities.exemplo.schema.attributes).toHaveProperty('nome');
  });
});

describe('servicoSobDemanda', () => {
  const outro = { ...modelo, model: { ...modelo.model, entity: 'outro' } };
  // Only requests' parameters are built here: the table's name, no connection.
  beforeAll(() => {
    vi.stubEnv('TABLE_NAME', 'plac-teste');
  });

  it('binds only the entity a read uses, and a transaction gets the whole service over the same instances', () => {
    let construcoes = 0;
    const exemplo = entidadeSobDemanda(() => (construcoes++, new Entity(modelo)));
    const segundo = entidadeSobDemanda(() => (construcoes++, new Entity(outro)));
    const db = servicoSobDemanda({ exemplo, outro: segundo });
    const params = db().entities.exemplo.get({ id: 'a' }).params<{ TableName: string }>();
    expect(construcoes).toBe(1);
    expect(params.TableName).toBe('plac-teste');
    expect(db().entities.exemplo.client).toBeDefined();

    const escrita = db()
      .transaction.write(({ exemplo: a, outro: b }) => [a.put({ id: 'b' }).commit(), b.put({ id: 'c' }).commit()])
      .params() as unknown as { TransactItems: { Put: { TableName: string } }[] };
    expect(construcoes).toBe(2);
    expect(escrita.TransactItems.map((i) => i.Put.TableName)).toEqual(['plac-teste', 'plac-teste']);
    expect(db().entities.exemplo).toBe(exemplo);
  });
});
