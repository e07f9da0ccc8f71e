/**
 * A copier of one entity table that never changes (a kept setup, `setupSnapshot.ts`), made as
 * JavaScript once it is copied often: a game of a small pack lasts a few choices, and copying the
 * kept records field by field through one loop cost as much as a choice, each store to a field or
 * an id of the pack's being one more name at the same place in the code, which V8 then looks up
 * anew every time. Written out, each store has a place of its own, always the same name: V8 takes
 * the record's next shape at once.
 *
 * Made the way the rules' code is (`emit.ts`): every id and field name is read from the table `T`
 * by its index (`k3`), the kept records from `R0` by theirs, every other word of the source is ours,
 * and what the copy calls comes in `H`. A value that is not a plain one (a list) is copied deeply (`H.clone`), so a game never shares
 * with the kept setup, or with another game, anything it may write.
 */

/** Records written out by one function: past a few dozen stores, a function of V8's own bigger than it likes to optimise. */
const RECORDS_A_FUNCTION = 32;

export interface CopierHelpers {
  /** An empty record, on the records' prototype. */
  record(): Record<string, unknown>;
  /** An empty table, on the records' prototype. */
  table(): Record<string, Record<string, unknown>>;
  /** A deep copy of a value holding lists. */
  clone(v: unknown): unknown;
}

type Table = Record<string, Record<string, unknown>>;

/** The copier of one kept table, `e` below. */
export interface TableCopier {
  /**
   * A table with `e`'s ids in the same order, each a copy of the record it had when the copier was
   * made (a kept table never changes), its fields in its order; given a table `t` that already has
   * those ids in that order (a game no longer wanted, `NewGameOptions.into`), each id of `t` gets
   * its copy instead, the table kept.
   */
  copy(t?: Table): Table;
  /** The same, each copy put in `records` too, at its id's number in `nums` (-1: none; `recordsByNumber`). */
  numbered(records: unknown[], t?: Table): Table;
}

/**
 * The copier of `e` (its records `ids`, in that order, numbered `nums`). Throws what `new Function`
 * throws where making code is forbidden (an `EvalError`, under a content security policy).
 */
export function tableCopier(e: Table, ids: string[], nums: number[], helpers: CopierHelpers): TableCopier {
  const values: string[] = [];
  const known = new Map<string, number>();
  const ref = (s: string): string => {
    let i = known.get(s);
    if (i === undefined) {
      i = values.length;
      values.push(s);
      known.set(s, i);
    }
    return `k${i}`;
  };
  // One copier a shape: records of one kind share it, and its stores see one shape each.
  const shapes = new Map<string, number>();
  const copiers: string[] = [];
  const shapeOf = (rec: Record<string, unknown>): number => {
    const keys = Object.keys(rec);
    const deep = keys.map((k) => rec[k] !== null && typeof rec[k] === 'object');
    const key = JSON.stringify([keys, deep]);
    let n = shapes.get(key);
    if (n === undefined) {
      n = copiers.length;
      shapes.set(key, n);
      const stores = keys.map((k, i) => `o[${ref(k)}] = ${deep[i] ? `H.clone(r[${ref(k)}])` : `r[${ref(k)}]`};`).join('');
      copiers.push(`function (r) {const o = H.record();${stores}return o;}`);
    }
    return n;
  };
  // Each part twice: with the records by number, and without, for a pack whose code reads none.
  const plain: string[] = [];
  const numbered: string[] = [];
  for (let from = 0; from < ids.length; from += RECORDS_A_FUNCTION) {
    let body = '';
    let byNumber = '';
    for (let i = from; i < Math.min(ids.length, from + RECORDS_A_FUNCTION); i++) {
      const id = ref(ids[i]);
      const store = `t[${id}] = c${shapeOf(e[ids[i]])}(r${i});`;
      body += store;
      // Its number is ours (`entityNumbers.ts`), written as a number: no text of the pack's.
      byNumber += nums[i] >= 0 ? `R[${Math.trunc(nums[i])}] = ${store}` : store;
    }
    plain.push(`function (t) {${body}}`);
    numbered.push(`function (R, t) {${byNumber}}`);
  }
  const lines = ['"use strict";'];
  for (let i = 0; i < values.length; i++) lines.push(`const k${i} = T[${i}];`);
  // The kept records themselves, found once: a table past a few dozen ids is a hash table, where
  // each copy looked every record up again.
  for (let i = 0; i < ids.length; i++) lines.push(`const r${i} = R0[${i}];`);
  copiers.forEach((c, i) => lines.push(`const c${i} = ${c};`));
  plain.forEach((p, i) => lines.push(`const p${i} = ${p};`));
  numbered.forEach((p, i) => lines.push(`const q${i} = ${p};`));
  const copy = plain.map((_, i) => `p${i}(t);`).join('');
  const withNumbers = numbered.map((_, i) => `q${i}(R, t);`).join('');
  lines.push(`return {copy: function (t = H.table()) {${copy}return t;}, numbered: function (R, t = H.table()) {${withNumbers}return t;}};`);
  return new Function('T', 'H', 'R0', lines.join('\n'))(values, helpers, ids.map((id) => e[id])) as TableCopier;
}
