import { whereCodeAllowed } from './codegen/codeAllowed.ts';
import { tableCopier, type TableCopier } from './codegen/copier.ts';
import type { EntityNumbers } from './entityNumbers.ts';
import { metaIfAny, metaOf, newMeta, type ByNumber, type KeptSetup, type StateMeta } from './stateMeta.ts';
import { noteWrite } from './undo.ts';
import type { GameState, Prompt, Value } from './types.ts';

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

/** The fields of a state in the order a new game makes them: a state in that order is copied field by field. */
const FIELDS = ['pack', 'seed', 'rng', 'players', 'e', 'current', 'turn', 'used', 'usedGame', 'prompt', 'over', 'choices', 'log'];

function inOrder(st: object): boolean {
  const keys = Object.keys(st);
  if (keys.length !== FIELDS.length && !(keys.length === FIELDS.length + 1 && keys[FIELDS.length] === 'forced')) return false;
  for (let i = 0; i < FIELDS.length; i++) if (keys[i] !== FIELDS[i]) return false;
  return true;
}

type StateLike = { log: unknown[]; choices: string[]; e: Record<string, Record<string, Value>>; prompt: Prompt | null };

/**
 * A game state copied for the next choice (`ownRecords`: with its own copy of every record, written
 * in place from then on, as a new game's are). The log and the choice list only ever grow, and their
 * entries never change, so they are copied shallowly; the entity records are shared until written.
 * So are the suspended frames: a rule never changes a list in a variable in place (a list is copied
 * into a variable, and the piles changed in place are records' fields), and the variables that
 * resuming sets are a copy of the frame's (`resume`), so the frames themselves are never written.
 *
 * A kept setup's copy (`plan`, always with records of its own) may be made in the objects of
 * `into`, a game copied from it before and no longer wanted (`NewGameOptions.into`): its entity
 * table, the same ids in the same order (a table never gains or loses an id, which the ids kept in
 * the meta count on too), where a new table took every id anew, a hash table's insert each past a
 * dozen or so: most of what a new game of a few dozen records cost. Each id is given a copy of its
 * kept record, as another state copied from that game may still hold its records; when none may
 * (`ownsEveryRecord`), the records themselves are given the kept values again, in place.
 */
export function cloneState<T extends StateLike>(st: T, ownRecords = false, plan?: CopyPlan, into?: T): T {
  if (plan !== undefined && plan.inOrder) return copiedSetup(st, plan, into);
  const src = metaOf(st);
  // Listing the keys of a large table without a prototype costs more than copying it: its ids are kept.
  const ids = plan !== undefined ? plan.ids : src.table === st.e && src.ids !== undefined ? src.ids : Object.keys(st.e);
  const out = inOrder(st) ? copiedInOrder(st as unknown as Record<string, unknown>, ids, ownRecords) : copiedByKeys(st, ids, ownRecords);
  if (ownRecords) {
    newMeta(out, src.prog, undefined, ids, out.e as object);
    return out as T;
  }
  // A copy shares every record with its source until it writes one (`writableRecord`): a choice
  // changes a few of a state's records, and copying all of them was most of the cost of a choice.
  // The source shares its records from now on too, should anything still write to it.
  src.owned = null;
  const m = newMeta(out, src.prog, null, ids, out.e as object);
  const b = src.byNumber;
  if (b !== undefined && b.table === st.e) m.byNumber = { table: out.e as object, numbers: b.numbers, records: b.records.slice() };
  return out as T;
}

/**
 * A new game copied from kept setup `st` (`plan`), in `into`'s objects when it is given
 * (`cloneState`). The kept state was made by the runtime and is never changed: its fields hold what
 * `GameState` says, its prompt the fields the plan found and its tables of counts none, so only its
 * lists, tables and prompt are copied, each as it is known to be, not every field through
 * `cloneJson` (a quarter of what a small game's new game cost).
 */
function copiedSetup<T extends StateLike>(st: T, plan: CopyPlan, into: T | undefined): T {
  const s = st as unknown as GameState;
  const inPlace = into !== undefined && ownsEveryRecord(into);
  const taken = inPlace ? takenByNumber(into, plan) : undefined;
  // Its records by number at once, each put there as it is put in the table, once its pack's are read.
  const records = taken !== undefined ? taken.records : !inPlace && plan.numbers.asked ? (plan.numbers.none.slice() as Array<Record<string, Value> | undefined>) : undefined;
  const out: Record<string, unknown> = {
    pack: s.pack,
    seed: s.seed,
    rng: s.rng,
    players: s.players.slice(),
    e: plannedTable(s.e, plan, records, into?.e, inPlace),
    current: s.current,
    turn: s.turn,
    // Empty in every kept setup: a use is counted only when a choice is made, and none is yet.
    used: emptyUses(),
    usedGame: emptyUses(),
    prompt: plan.promptInOrder ? promptCopy(s.prompt!) : copiedPrompt(s.prompt),
    over: s.over,
    choices: s.choices.slice(),
    log: s.log.slice(),
  };
  if ('forced' in s) out.forced = cloneJson(s.forced);
  const m = newMeta(out, metaOf(st).prog, undefined, plan.ids, out.e as object);
  if (taken !== undefined) m.byNumber = taken;
  else if (records !== undefined) m.byNumber = { table: out.e as object, numbers: plan.numbers, records };
  return out as unknown as T;
}

/**
 * The copy of a state whose fields are in a new game's order, made as one literal: V8 gives every
 * copy the same shape at once, where adding the fields one by one walked its shape tree each time.
 */
function copiedInOrder(st: Record<string, unknown>, ids: string[], ownRecords: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    pack: cloneJson(st.pack),
    seed: cloneJson(st.seed),
    rng: cloneJson(st.rng),
    players: cloneJson(st.players),
    e: copiedTable(st.e as Record<string, Record<string, Value>>, ids, ownRecords),
    current: cloneJson(st.current),
    turn: cloneJson(st.turn),
    used: copiedCounts(st.used as Record<string, Value>),
    usedGame: copiedCounts(st.usedGame as Record<string, Value>),
    prompt: copiedPrompt(st.prompt as Prompt | null),
    over: cloneJson(st.over),
    choices: (st.choices as string[]).slice(),
    log: (st.log as unknown[]).slice(),
  };
  if ('forced' in st) out.forced = cloneJson(st.forced);
  return out;
}

/** A table of counts (uses of limited actions), on the records' prototype: an empty one costs next to nothing to make. */
export function copiedCounts(t: Record<string, Value>): Record<string, Value> {
  if (t === null || typeof t !== 'object' || Array.isArray(t)) return cloneJson(t);
  const out = newRecord();
  const keys = Object.keys(t);
  for (let i = 0; i < keys.length; i++) out[keys[i]] = cloneJson(t[keys[i]]);
  return out;
}

function copiedByKeys(st: StateLike, ids: string[], ownRecords: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in st) {
    const v = (st as Record<string, unknown>)[k];
    if (k === 'e') out[k] = copiedTable(st.e, ids, ownRecords);
    else if (k === 'prompt') out[k] = copiedPrompt(st.prompt);
    else out[k] = k === 'log' || k === 'choices' ? (v as unknown[]).slice() : cloneJson(v);
  }
  return out;
}

function copiedPrompt(p: Prompt | null): Prompt | null {
  return p === null ? null : { ...p, frames: p.frames.slice() };
}

/** The fields of a prompt the runtime makes, in its order (runtime/prompts.ts). */
const PROMPT_FIELDS = ['player', 'kind', 'actions', 'options', 'optional', 'text', 'rule', 'slot', 'resolving', 'frames'];

/** `copiedPrompt` of a prompt of `PROMPT_FIELDS`, made as one literal: a spread copies field by field what V8 then stores again. */
function promptCopy(p: Prompt): Prompt {
  return { player: p.player, kind: p.kind, actions: p.actions, options: p.options, optional: p.optional, text: p.text, rule: p.rule, slot: p.slot, resolving: p.resolving, frames: p.frames.slice() };
}

function copiedTable(e: Record<string, Record<string, Value>>, ids: string[], ownRecords: boolean): Record<string, Record<string, Value>> {
  const out = newTable();
  if (ownRecords) for (let i = 0; i < ids.length; i++) out[ids[i]] = copiedRecord(e[ids[i]]);
  else for (let i = 0; i < ids.length; i++) out[ids[i]] = e[ids[i]];
  return out;
}

/**
 * How a state that is copied again and again and never changed (a kept setup, `setupSnapshot.ts`)
 * is copied: the ids of its records, and each record's fields where none holds a list (its values
 * are then copied as they are), else null (the record is copied as any other); whether its fields
 * are in a new game's order. Found once, not at every copy.
 */
export interface CopyPlan {
  ids: string[];
  /** The numbering of the setup's pack (`entityNumbers.ts`), and each id's number in it (-1: none). */
  numbers: EntityNumbers;
  nums: number[];
  fields: Array<string[] | null>;
  inOrder: boolean;
  /** Whether its prompt has the fields of one the runtime makes, in their order (`promptCopy`). */
  promptInOrder: boolean;
  /** The copies made so far by `fields`, until `copier` is made. */
  copies: number;
  /** The table's copier made as code (`codegen/copier.ts`), once it has been copied `COPIES_BEFORE_CODE` times; null where making code is forbidden. */
  copier: TableCopier | null | undefined;
}

/**
 * Copies of a kept table made field by field before its copier is made as code: making it costs
 * what a few dozen copies do, which a pack replayed once after an edit never gets back.
 */
const COPIES_BEFORE_CODE = 64;

const COPIER_HELPERS = { record: newRecord, table: newTable, clone: cloneJson };

export function copyPlan(st: StateLike, numbers: EntityNumbers): CopyPlan {
  const ids = Object.keys(st.e);
  const fields = ids.map((id) => {
    const rec = st.e[id];
    const keys = Object.keys(rec);
    return keys.every((k) => rec[k] === null || typeof rec[k] !== 'object') ? keys : null;
  });
  const keys = st.prompt === null ? [] : Object.keys(st.prompt);
  const promptInOrder = keys.length === PROMPT_FIELDS.length && keys.every((k, i) => k === PROMPT_FIELDS[i]);
  return { ids, numbers, nums: ids.map((id) => numbers.of.get(id) ?? -1), fields, inOrder: inOrder(st), promptInOrder, copies: 0, copier: undefined };
}

/**
 * A copy of kept table `e` with its own records, made in `into` when given (a table of the same
 * ids, in the same order), each put in `records` by its number too when given; or (`inPlace`)
 * `into`'s own records given `e`'s values again (`ownsEveryRecord`), found in `records`, `into`'s
 * records by number, when given.
 */
function plannedTable(e: Record<string, Record<string, Value>>, plan: CopyPlan, records: Array<Record<string, Value> | undefined> | undefined, into?: Record<string, Record<string, Value>>, inPlace = false): Record<string, Record<string, Value>> {
  if (plan.copier) {
    const c = plan.copier;
    if (inPlace) return (records === undefined ? c.reset(into!) : c.resetNumbered(records, into!)) as Record<string, Record<string, Value>>;
    return (records === undefined ? c.copy(into) : c.numbered(records, into)) as Record<string, Record<string, Value>>;
  }
  if (plan.copier === undefined && ++plan.copies >= COPIES_BEFORE_CODE) {
    // A page whose content security policy forbids making code copies field by field.
    plan.copier = whereCodeAllowed(() => tableCopier(e, plan.ids, plan.nums, COPIER_HELPERS)) ?? null;
  }
  const { ids, nums, fields } = plan;
  const out = into ?? newTable();
  for (let i = 0; i < ids.length; i++) {
    const rec = e[ids[i]];
    const keys = fields[i];
    if (inPlace) {
      const own = records !== undefined && nums[i] >= 0 ? records[nums[i]]! : out[ids[i]];
      if (keys === null) for (const k of Object.keys(rec)) own[k] = cloneJson(rec[k]);
      else for (let k = 0; k < keys.length; k++) own[keys[k]] = rec[keys[k]];
      continue;
    }
    let copy: Record<string, Value>;
    if (keys === null) copy = copiedRecord(rec);
    else {
      copy = newRecord();
      for (let k = 0; k < keys.length; k++) copy[keys[k]] = rec[keys[k]];
    }
    out[ids[i]] = copy;
    if (records !== undefined && nums[i] >= 0) records[nums[i]] = copy;
  }
  return out;
}

/**
 * Whether every record of `st` (a game no longer wanted, its table the kept setup's ids in their
 * order: `fromSetup` checks) is its own, so that a new game may take them as they are, each field
 * given the setup's value again in place: no record then made, nor put in the table (a hash table's
 * store each past a few dozen ids) nor among the records by number. Its own: shared with no other
 * state (`StateMeta.owned` undefined; a copy made of it, a record put back from another and an
 * attach after a hand edit make it null or a set) and not amid a choice. Every record has the
 * setup's fields in their order: a rule writes only a field its entity's kind declares (the
 * checker's `fieldTarget`), and every record is given each of its kind's at the start.
 */
function ownsEveryRecord(st: StateLike): boolean {
  const m = metaIfAny(st);
  return m !== undefined && m.owned === undefined && m.replaced === undefined && m.written === undefined;
}

/** The records by number of `st`, whose records a new game takes (`ownsEveryRecord`), when they are in step with its table and of `plan`'s numbering: the new game's from then on (of its table, the same), `st` keeps none. */
function takenByNumber(st: StateLike, plan: CopyPlan): ByNumber | undefined {
  const m = metaOf(st);
  const b = m.byNumber;
  m.byNumber = undefined;
  return b !== undefined && b.table === st.e && b.numbers === plan.numbers ? b : undefined;
}

/**
 * `st`'s records made copies of its kept setup's again (`KeptSetup`), each put in its own table (the
 * setup's ids, in their order: a table never gains or loses one) and among its records by number:
 * a state that was a copy of the setup is put back so, whatever a choice wrote. Its old records
 * are replaced, not written: a copy of the state may still hold them.
 */
export function recopiedFromSetup(st: { e: Record<string, Record<string, Value>> }, m: StateMeta, setup: KeptSetup): void {
  const b = m.byNumber;
  const records = b !== undefined && b.table === st.e && b.numbers === setup.plan.numbers ? b.records : undefined;
  if (records === undefined) m.byNumber = undefined;
  plannedTable(setup.st.e, setup.plan, records, st.e);
  m.owned = undefined;
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

/**
 * An empty table of uses (`GameState.used`, `usedGame`), on the records' prototype as `newRecord`
 * makes one (one with no prototype at all is a hash table to V8, slow to make at every turn), but
 * made by `new`: V8 allocates that in place, where `Object.create` is a call of its builtin, and
 * every turn and every new game makes one.
 */
const UsesTable = function UsesTable() {} as unknown as new () => Record<string, number>;
UsesTable.prototype = RECORD as Record<string, number>;

export function emptyUses(): Record<string, number> {
  return new UsesTable();
}

/**
 * A state's table of entity records, on the same prototype as a record: a small pack's table then
 * stays in V8's fast form too, and copying it for every choice costs half as much. (A table of more
 * than a few dozen entities is a hash table either way.)
 */
export function newTable(): Record<string, Record<string, Value>> {
  return Object.create(RECORD) as Record<string, Record<string, Value>>;
}

function copiedRecord(rec: Record<string, Value>): Record<string, Value> {
  const out = newRecord();
  const keys = Object.keys(rec);
  for (let i = 0; i < keys.length; i++) out[keys[i]] = cloneJson(rec[keys[i]]);
  return out;
}

/**
 * An entity's record, ready for its `field` (or any field) to be written: copied first when it is
 * shared with another state. While a choice is applied to the state itself (`applyInPlace`), a record of its
 * own is written where it is, the field's value before noted to be put back should the choice be
 * refused (a list as a copy: piles are changed in place); copying the whole record for every write
 * was most of what a small game's choice allocated.
 */
export function writableRecord(st: { e: Record<string, Record<string, Value>> }, id: string, field?: string): Record<string, Value> | undefined {
  const rec = st.e[id];
  if (!rec) return undefined;
  return writableFound(st, id, rec, field);
}

/**
 * `writableRecord` of `rec`, `id`'s record in `st` found by the caller: code made from the rules finds
 * an entity they name among the records by number (`recordsByNumber`), where the look-up of `id` in
 * the table above, one place in the code for every id a pack writes, is V8's generic keyed load.
 */
export function writableFound(st: { e: Record<string, Record<string, Value>> }, id: string, rec: Record<string, Value>, field?: string): Record<string, Value> {
  const m = metaIfAny(st);
  if (m === undefined) return rec;
  const w = m.written;
  // A caller naming no field may write any: the record is then copied, as one shared is.
  if ((m.owned === undefined || m.owned?.has(rec)) && (w === undefined || field !== undefined)) {
    if (w !== undefined) noteWrite(m, w, rec, field!);
    return rec;
  }
  return copiedToWrite(st, m, id, rec);
}

/** `rec`, `id`'s record in `st`, shared with another state: replaced by a copy of `st`'s own, to write. Apart, so that the way of a record of its own stays short for V8 to inline. */
function copiedToWrite(st: { e: Record<string, Record<string, Value>> }, m: StateMeta, id: string, rec: Record<string, Value>): Record<string, Value> {
  const copy = copiedRecord(rec);
  putRecord(st, m, id, copy);
  (m.owned ??= new Set()).add(copy);
  m.replaced?.push(id, rec);
  return copy;
}

/** Puts `rec` in `st`'s table as `id`'s record, and among its records by number when it has them. */
export function putRecord(st: { e: Record<string, Record<string, Value>> }, m: StateMeta, id: string, rec: Record<string, Value>): void {
  st.e[id] = rec;
  const b = m.byNumber;
  if (b === undefined || b.table !== st.e) return;
  const n = b.numbers.of.get(id);
  if (n !== undefined) b.records[n] = rec;
}

/**
 * The records of `st` by entity number (`entityNumbers.ts`): the record of the entity numbered `n`
 * is `[n]`, undefined where it has none. Code made from the rules reads a record so by a number
 * found when it is made, where looking its id up in the table is a hash table's look-up past a few
 * dozen ids. Made at the first ask from the table, then kept in step with it: every record the
 * runtime puts in the table (a shared one copied to be written, one put back by an undo, a kept
 * setup's copy) is put here too (`putRecord`), and a copy of the state copies them. A state edited
 * outside the rules drops them (`forgetHolders`).
 */
export function recordsByNumber(st: { e: Record<string, Record<string, Value>> }, numbers: EntityNumbers): Array<Record<string, Value> | undefined> {
  const m = metaOf(st);
  const b = m.byNumber;
  if (b !== undefined && b.table === st.e && b.numbers === numbers) return b.records;
  const made: ByNumber = { table: st.e, numbers, records: numbers.none.slice() as Array<Record<string, Value> | undefined> };
  for (const [id, n] of numbers.of) {
    const rec = st.e[id];
    if (rec !== undefined) made.records[n] = rec;
  }
  m.byNumber = made;
  numbers.asked = true;
  return made.records;
}
