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
  /**
   * Table `t` (`e`'s ids in the same order, every record its own, of the fields `e`'s has) given
   * `e`'s values again, each field written in place: a game no longer wanted made the new one
   * without a record made or put anywhere.
   */
  reset(t: Table): Table;
  /** The same, each record found in `records`, `t`'s records by number, where it has a number: not looked up in `t`. */
  resetNumbered(records: unknown[], t: Table): Table;
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
  // One copier and one resetter a shape: records of one kind share them, and their stores see one shape each.
  const shapes = new Map<string, number>();
  const copiers: string[] = [];
  const resetters: string[] = [];
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
      resetters.push(stores === '' ? '' : `function (o, r) {${stores}}`);
    }
    return n;
  };
  // Each part four times: copied or written in place, with the records by number or without (for
  // a pack whose code reads none).
  const plain: string[] = [];
  const numbered: string[] = [];
  const reset: string[] = [];
  const resetNumbered: string[] = [];
  for (let from = 0; from < ids.length; from += RECORDS_A_FUNCTION) {
    let body = '';
    let byNumber = '';
    let inPlace = '';
    let inPlaceByNumber = '';
    for (let i = from; i < Math.min(ids.length, from + RECORDS_A_FUNCTION); i++) {
      const id = ref(ids[i]);
      const shape = shapeOf(e[ids[i]]);
      const store = `t[${id}] = c${shape}(r${i});`;
      body += store;
      // Its number is ours (`entityNumbers.ts`), written as a number: no text of the pack's.
      const own = nums[i] >= 0 ? `R[${Math.trunc(nums[i])}]` : `t[${id}]`;
      byNumber += nums[i] >= 0 ? `${own} = ${store}` : store;
      // A record of no fields has nothing to be given again.
      if (resetters[shape] !== '') {
        inPlace += `s${shape}(t[${id}], r${i});`;
        inPlaceByNumber += `s${shape}(${own}, r${i});`;
      }
    }
    plain.push(`function (t) {${body}}`);
    numbered.push(`function (R, t) {${byNumber}}`);
    reset.push(`function (t) {${inPlace}}`);
    resetNumbered.push(`function (R, t) {${inPlaceByNumber}}`);
  }
  const lines = ['"use strict";'];
  for (let i = 0; i < values.length; i++) lines.push(`const k${i} = T[${i}];`);
  // The kept records themselves, found once: a table past a few dozen ids is a hash table, where
  // each copy looked every record up again.
  for (let i = 0; i < ids.length; i++) lines.push(`const r${i} = R0[${i}];`);
  copiers.forEach((c, i) => lines.push(`const c${i} = ${c};`));
  resetters.forEach((c, i) => c !== '' && lines.push(`const s${i} = ${c};`));
  plain.forEach((p, i) => lines.push(`const p${i} = ${p};`));
  numbered.forEach((p, i) => lines.push(`const q${i} = ${p};`));
  reset.forEach((p, i) => lines.push(`const y${i} = ${p};`));
  resetNumbered.forEach((p, i) => lines.push(`const z${i} = ${p};`));
  const copy = plain.map((_, i) => `p${i}(t);`).join('');
  const withNumbers = numbered.map((_, i) => `q${i}(R, t);`).join('');
  const inPlace = reset.map((_, i) => `y${i}(t);`).join('');
  const inPlaceByNumber = resetNumbered.map((_, i) => `z${i}(R, t);`).join('');
  lines.push(
    `return {copy: function (t = H.table()) {${copy}return t;}, numbered: function (R, t = H.table()) {${withNumbers}return t;}, ` +
      `reset: function (t) {${inPlace}return t;}, resetNumbered: function (R, t) {${inPlaceByNumber}return t;}};`,
  );
  return new Function('T', 'H', 'R0', lines.join('\n'))(values, helpers, ids.map((id) => e[id])) as TableCopier;
}
