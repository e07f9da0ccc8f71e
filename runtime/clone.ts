import type { Frame, Prompt, Value } from './types.ts';

/**
 * Deep copy of plain JSON data; much faster than structuredClone for the small objects of a game
 * state. Objects come out without a prototype: a state's records are keyed by the pack's names.
 */
export function cloneJson<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneJson(v[i]);
    return out as T;
  }
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(v)) out[k] = cloneJson((v as Record<string, unknown>)[k]);
  return out as T;
}

export function sameValue(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return false;
}

/**
 * The entity records a copied state may write in place. The other records are still shared with the
 * state it was copied from, and are copied on their first write (`writableRecord`): a choice changes
 * a few of a state's records, and copying all of them was most of the cost of a choice. A state with
 * no entry here (a new game, a state loaded from JSON) shares nothing.
 */
const owned = new WeakMap<object, Set<object>>();

/**
 * A game state copied for the next choice. The log and the choice list only ever grow, and their
 * entries never change, so they are copied shallowly; the entity records are shared until written.
 * So are the suspended frames' values: a rule never changes a list in a variable in place (a list is
 * copied into a variable, and the piles changed in place are records' fields), so only each frame's
 * variables, which resuming sets, are copied.
 */
export function cloneState<T extends { log: unknown[]; choices: string[]; e: Record<string, Record<string, Value>>; prompt: Prompt | null }>(st: T): T {
  const out: Record<string, unknown> = {};
  for (const k in st) {
    const v = (st as Record<string, unknown>)[k];
    if (k === 'e') out[k] = copiedTable(st.e);
    else if (k === 'prompt') out[k] = st.prompt === null ? null : { ...st.prompt, frames: st.prompt.frames.map(copiedFrame) };
    else out[k] = k === 'log' || k === 'choices' ? (v as unknown[]).slice() : cloneJson(v);
  }
  // The source shares its records from now on too, should anything still write to it.
  owned.set(st, new Set());
  owned.set(out, new Set());
  return out as T;
}

function copiedFrame(f: Frame): Frame {
  return { ...f, env: f.env.slice() };
}

/**
 * The ids of a table of records, in its order, kept with each copy: listing the keys of a large
 * table without a prototype costs more than copying it.
 */
const idsOf = new WeakMap<object, string[]>();

function copiedTable(e: Record<string, Record<string, Value>>): Record<string, Record<string, Value>> {
  let ids = idsOf.get(e);
  if (!ids) ids = Object.keys(e);
  const out = Object.create(null) as Record<string, Record<string, Value>>;
  for (let i = 0; i < ids.length; i++) out[ids[i]] = e[ids[i]];
  idsOf.set(out, ids);
  return out;
}

/**
 * The prototype of entity records: empty, frozen, with no prototype of its own, so a record keyed by
 * the pack's field names finds no field it was not given, as a table does (`table.ts`). Unlike a
 * table's, a record's fields stay in V8's fast form (an object made with no prototype is a hash
 * table), and the rules read and copy records all the time.
 */
const RECORD: object = Object.freeze(Object.create(null));

export function newRecord(): Record<string, Value> {
  return Object.create(RECORD) as Record<string, Value>;
}

function copiedRecord(rec: Record<string, Value>): Record<string, Value> {
  const out = newRecord();
  const keys = Object.keys(rec);
  for (let i = 0; i < keys.length; i++) out[keys[i]] = cloneJson(rec[keys[i]]);
  return out;
}

/** An entity's record, ready to be written: copied first when it is shared with another state. */
export function writableRecord(st: { e: Record<string, Record<string, Value>> }, id: string): Record<string, Value> | undefined {
  const rec = st.e[id];
  if (!rec) return undefined;
  const own = owned.get(st);
  if (!own || own.has(rec)) return rec;
  const copy = copiedRecord(rec);
  st.e[id] = copy;
  own.add(copy);
  return copy;
}
