/**
 * The smallest Reflect-metadata API that @peculiar/x509 needs.
 *
 * @peculiar/x509 registers its algorithm classes with tsyringe, which refuses to load unless
 * `Reflect.getMetadata` exists (the library asks its users to install `reflect-metadata`). Its own
 * decorators only store and read plain values, so this WeakMap-backed subset is enough. Import this
 * module before @peculiar/x509. If a real polyfill is already loaded, it is left untouched; adding
 * `reflect-metadata` as a dev dependency and importing it here instead would make this file redundant.
 */
type Key = string | symbol | undefined;

const store = new WeakMap<object, Map<Key, Map<unknown, unknown>>>();

function ownMap(target: object, property: Key, create: boolean): Map<unknown, unknown> | undefined {
  let byProperty = store.get(target);
  if (!byProperty && create) store.set(target, (byProperty = new Map()));
  let map = byProperty?.get(property);
  if (!map && create && byProperty) byProperty.set(property, (map = new Map()));
  return map;
}

function getOwnMetadata(key: unknown, target: object, property?: Key): unknown {
  return ownMap(target, property, false)?.get(key);
}

function hasOwnMetadata(key: unknown, target: object, property?: Key): boolean {
  return ownMap(target, property, false)?.has(key) ?? false;
}

/** Looks along the prototype chain, as reflect-metadata does, so subclasses see their parents' data. */
function getMetadata(key: unknown, target: object, property?: Key): unknown {
  for (let t: object | null = target; t; t = Object.getPrototypeOf(t) as object | null) {
    if (hasOwnMetadata(key, t, property)) return getOwnMetadata(key, t, property);
  }
  return undefined;
}

function hasMetadata(key: unknown, target: object, property?: Key): boolean {
  for (let t: object | null = target; t; t = Object.getPrototypeOf(t) as object | null) {
    if (hasOwnMetadata(key, t, property)) return true;
  }
  return false;
}

function defineMetadata(key: unknown, value: unknown, target: object, property?: Key): void {
  ownMap(target, property, true)?.set(key, value);
}

function metadata(key: unknown, value: unknown) {
  return (target: object, property?: Key): void => defineMetadata(key, value, target, property);
}

const reflect = Reflect as unknown as Record<string, unknown>;
if (typeof reflect.getMetadata !== 'function') {
  Object.assign(reflect, { getMetadata, getOwnMetadata, hasMetadata, hasOwnMetadata, defineMetadata, metadata });
}
