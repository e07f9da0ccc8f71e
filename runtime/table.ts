/**
 * Tables keyed by a pack's names (entities, kinds, actions, events, fields …) have no prototype: an
 * entity called `__proto__` or an action called `constructor` is then an ordinary key, and can
 * neither reach `Object.prototype` nor find something the pack never declared.
 */
export type Table<T> = Record<string, T>;

export function table<T>(entries?: Iterable<readonly [string, T]>): Table<T> {
  const out = Object.create(null) as Table<T>;
  if (entries) for (const [k, v] of entries) out[k] = v;
  return out;
}
