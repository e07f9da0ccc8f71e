import { Scalar, YAMLMap, YAMLSeq, type Document } from 'yaml';

/**
 * The plain value of a parsed document, frozen all through: what `doc.toJS()` gives, then frozen.
 * Pack files are plain mappings, lists and scalars of the core schema, and for those the value is
 * built and frozen in one walk, without the yaml library's conversion context (a context object and
 * an anchor lookup per node, then a second walk to freeze): on a cold compile that was a tenth of
 * the YAML parse. Anything else — an alias, a mapping or list as a key, another schema (`%YAML 1.1`
 * brings merge keys, sets, timestamps) — is left to `toJS`, which may throw (an alias without its
 * anchor, too many aliases).
 */
export function frozenValue(doc: Document.Parsed): unknown {
  if (doc.schema.name === 'core') {
    let value: unknown = UNPLAIN;
    try {
      value = plain(doc.contents);
    } catch (err) {
      // Nested past the call stack: `toJS` says so in its own words.
      if (!(err instanceof RangeError)) throw err;
    }
    if (value !== UNPLAIN) return value;
  }
  return deepFreeze(doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }));
}

/** The yaml library's bound on what aliases may multiply (its `maxAliasCount`): an alias bomb is refused (RB0012). */
export const MAX_ALIAS_COUNT = 100;

/** Marks a node `plain` leaves to `toJS`. */
const UNPLAIN: unique symbol = Symbol('unplain');

function plain(node: unknown): unknown {
  if (node === null || node === undefined) return null;
  const type = (node as object).constructor;
  if (type === Scalar) {
    const v = (node as Scalar).value;
    return v !== null && typeof v === 'object' ? UNPLAIN : v;
  }
  if (type === YAMLMap) {
    const map: Record<string, unknown> = {};
    for (const pair of (node as YAMLMap).items) {
      const key = pair.key as Scalar & { addToJSMap?: unknown };
      if (key === null || typeof key !== 'object' || key.constructor !== Scalar || key.addToJSMap) return UNPLAIN;
      const k = key.value;
      if (k !== null && typeof k === 'object') return UNPLAIN;
      const name = k === null ? '' : String(k);
      const value = plain(pair.value);
      if (value === UNPLAIN) return UNPLAIN;
      // As `toJS` does, `__proto__` becomes an own property rather than the prototype; any other
      // name the object answers to (`toString`) becomes one by assignment.
      if (name === '__proto__') Object.defineProperty(map, name, { value, writable: true, enumerable: true, configurable: true });
      else map[name] = value;
    }
    return Object.freeze(map);
  }
  if (type === YAMLSeq) {
    const items = (node as YAMLSeq).items;
    const list: unknown[] = [];
    for (const item of items) {
      const value = plain(item);
      if (value === UNPLAIN) return UNPLAIN;
      list.push(value);
    }
    return Object.freeze(list);
  }
  return UNPLAIN;
}

/** Freezes a value and everything in it; an alias may make the same object appear twice, or inside itself. */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length) {
    const x = stack.pop();
    if (!x || typeof x !== 'object' || Object.isFrozen(x)) continue;
    Object.freeze(x);
    for (const v of Object.values(x)) if (v && typeof v === 'object') stack.push(v);
  }
  return value;
}
