/**
 * An ElectroDB entity built the first time it is used, not when its module is imported (issue 39).
 *
 * Building an ElectroDB entity parses its whole model: its attributes, indexes, key templates and collections.
 * A bundle imports every store its routes can reach, so at module top level that parse ran for every
 * entity of the bundle (114 in all, 50 or more in the larger bundles) before the first request, which
 * uses two or three of them: about a sixth of ConsultaApi's import in a CPU profile. Built on demand,
 * a cold start parses only the entities its request reads or writes.
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
