/* eslint-disable @typescript-eslint/no-explicit-any -- ElectroDB's own types for any entity */
import { Service, type Entity } from 'electrodb';
import { tableConfig } from './table';

/**
 * An ElectroDB entity built the first time it is used, not when its module is imported (issue 39).
 *
 * Building an ElectroDB entity parses its whole model: its attributes, indexes, key templates and
 * collections. A bundle imports every store its routes can reach, so at module top level that parse ran
 * for every entity of the bundle (110 top-level entities in the stores) before the first request, which
 * uses two or three of them: about a sixth of ConsultaApi's import in a CPU profile. Built on demand, a
 * cold start parses only the entities its request reads or writes.
 *
 * The entity is stood in for by a Proxy that forwards every operation to the real instance, built once
 * on the first of them. ElectroDB's entities and services are plain classes without private fields, so
 * a method called through the proxy reaches the instance's state through it too, and a Service that
 * joins the proxy (`new Service({ a, b })`) uses it as the entity itself. The type is the entity's own:
 * `EntityItem<typeof x>` and every query keep their types.
 */
export function entidadeSobDemanda<E extends object>(criar: () => E): E {
  let instancia: E | undefined;
  const real = () => (instancia ??= criar());
  return new Proxy({} as E, {
    get: (_, chave) => Reflect.get(real(), chave),
    set: (_, chave, valor) => Reflect.set(real(), chave, valor),
    has: (_, chave) => Reflect.has(real(), chave),
    deleteProperty: (_, chave) => Reflect.deleteProperty(real(), chave),
    defineProperty: (_, chave, descritor) => Reflect.defineProperty(real(), chave, descritor),
    ownKeys: () => Reflect.ownKeys(real()),
    // A proxy may not report a property as non-configurable when its own target lacks it: the copy says configurable.
    getOwnPropertyDescriptor: (_, chave) => {
      const descritor = Reflect.getOwnPropertyDescriptor(real(), chave);
      return descritor && { ...descritor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

type Entidades = Record<string, Entity<any, any, any, any>>;

/**
 * A context's ElectroDB service whose entities are bound to the table one by one, as each is first
 * used (issue 39). A Service joins every entity it is given when it is built, and so builds them all:
 * the Fat-e store's service has 22, and the integrator's look-up reads one of them. Here
 * `db().entities.x` binds only `x` to the table's client and name (what the Service's join does to each
 * entity), and anything else of the service (`transaction`, `collections`…) builds the whole Service
 * then, which joins the same entity instances: an entity bound before is the service's own.
 */
export function servicoSobDemanda<E extends Entidades>(entidades: E): () => Service<E> {
  let servico: Service<E> | undefined;
  const completo = () => (servico ??= new Service(entidades, tableConfig()));
  const ligadas = new Set<PropertyKey>();
  const entities = new Proxy(entidades, {
    get(alvo, nome) {
      const entidade = Reflect.get(alvo, nome) as Entity<any, any, any, any> | undefined;
      if (entidade && !servico && !ligadas.has(nome)) {
        const { client, table } = tableConfig();
        entidade.setClient(client);
        entidade.setTableName(table);
        ligadas.add(nome);
      }
      return entidade;
    },
  });
  const fachada = new Proxy({} as Service<E>, {
    get: (_, nome) => (nome === 'entities' && !servico ? entities : Reflect.get(completo(), nome)),
    set: (_, nome, valor) => Reflect.set(completo(), nome, valor),
    has: (_, nome) => Reflect.has(completo(), nome),
  });
  return () => fachada;
}
