/**
 * A compiled pack as plain data, for another thread: what a simulation's worker threads get, so
 * that they link and play the pack this thread compiled instead of compiling it again (most of a
 * thread's start). The lowered pack is already data (compiled.ts); only its two functions stay
 * behind: `kindOf`, made again from the entities, and `expression`, which needs the compiler and is
 * for tools, not games.
 *
 * The receiving side trusts nothing: `packFromForm` reads the form against the shape of
 * CompiledPack, every operation by its tag, and builds the pack afresh, its tables without a
 * prototype as the compiler makes them (a structured clone gives them `Object.prototype` back). A
 * form of another shape is refused with where it goes wrong, before anything links or runs it.
 */
import type { ActionDef, BodyDef, CardBinding, Check, CompiledPack, Expr, ModifierDef, Origin, PipelineDef, RoleDef, Rules, Stmt, TriggerDef, Block } from './compiled.ts';
import { BUILTINS } from './builtins.ts';
import { kindLookup } from './kindOf.ts';
import { table, type Table } from './table.ts';
import type { EntityInfo, FieldInfo, KindInfo, Value } from './types.ts';

/** Changes whenever CompiledPack changes shape, so a thread of another build refuses the form. */
export const PACK_FORM = 2;

export interface PackForm {
  format: typeof PACK_FORM;
  pack: Omit<CompiledPack, 'kindOf' | 'expression'>;
}

export class MalformedPackForm extends Error {}

export function packForm(pack: CompiledPack): PackForm {
  const { kindOf: _kindOf, expression: _expression, ...data } = pack;
  return { format: PACK_FORM, pack: data };
}

/** The pack a form holds, or a MalformedPackForm saying where the form is not one. */
export function packFromForm(form: unknown): CompiledPack {
  try {
    const f = record(form, 'the form');
    if (f.format !== PACK_FORM) throw new MalformedPackForm(`the form is of format ${show(f.format)}, this thread reads format ${PACK_FORM} (two builds of rulebook)`);
    const names: Names = { fn: [], pipeline: [], proc: [], action: [], blocks: new Set() };
    named = names;
    const data = compiledPack(f.pack, 'pack');
    knownNames(data, names);
    inRange(data);
    return { ...data, kindOf: kindLookup(data.entities) };
  } catch (e) {
    // A form nested past the stack, say, is malformed too.
    throw new MalformedPackForm(`malformed compiled pack: ${(e as Error).message}`);
  } finally {
    named = undefined;
  }
}

/** The names the operations of a form call, each with where, and the blocks' numbers, to check once it is read. */
interface Names {
  fn: Array<[string, string]>;
  pipeline: Array<[string, string]>;
  proc: Array<[string, string]>;
  action: Array<[string, string]>;
  blocks: Set<number>;
}

/** The names of the form being read: the readers are built once, the names are the read's own. */
let named: Names | undefined;

/** A name an operation calls, kept to check against the pack's rules once all of them are read. */
const called =
  (kind: Exclude<keyof Names, 'blocks'>): Read<string> =>
  (v, at) => {
    const name = str(v, at);
    named![kind].push([name, at]);
    return name;
  };

function knownNames(pack: PackForm['pack'], names: Names): void {
  const tables = { fn: pack.rules.fns, pipeline: pack.rules.pipelines, proc: pack.rules.procs, action: pack.rules.actions };
  for (const kind of ['fn', 'pipeline', 'proc', 'action'] as const) {
    for (const [name, at] of names[kind]) if (!(name in tables[kind])) throw new MalformedPackForm(`${at} names the ${kind} ${JSON.stringify(name)}, which the pack does not have`);
  }
}

/**
 * Locals above a rule's count, calls with more arguments than their callee has locals, and fields no
 * kind declares: a form of the right shape may still name them, and the runtime reads and writes
 * them unchecked (a local past the count is an element its context was never made with).
 */
const MAX_LOCALS = 1 << 16;

function inRange(pack: PackForm['pack']): void {
  const r = pack.rules;
  const kinds = Object.values(pack.kinds);
  const declared = (part: 'props' | 'state') => new Set(kinds.flatMap((k) => Object.keys(k[part])));
  const props = declared('props');
  const state = declared('state');
  const bad = (at: string, why: string): never => {
    throw new MalformedPackForm(`${at} ${why}`);
  };
  const local = (slot: number, slots: number, at: string) => {
    if (slot >= slots) bad(at, `is local ${slot}, but its rule has ${slots} local${slots === 1 ? '' : 's'}`);
  };
  const stateField = (name: string, at: string) => {
    if (!state.has(name)) bad(at, `names the field ${JSON.stringify(name)}, which no kind of the pack has`);
  };
  const arity = (args: unknown[], most: number, what: string, at: string) => {
    if (args.length > most) bad(at, `gives ${args.length} arguments to ${what}, which takes at most ${most}`);
  };
  /** Every operation under `node`, with `slots` locals. */
  const walk = (node: unknown, slots: number, at: string): void => {
    // A context is made with its locals up front: a count past any rule's would be memory asked for nothing.
    if (slots > MAX_LOCALS) bad(at, `has ${slots} locals, more than the ${MAX_LOCALS} a rule may have`);
    if (Array.isArray(node)) {
      node.forEach((x, i) => walk(x, slots, `${at}[${i}]`));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const n = node as Record<string, unknown> & { op?: string; slot?: number; name?: string; field?: string; args?: unknown[] };
    switch (n.op) {
      case 'local':
      case 'let':
      case 'for':
      case 'choose':
        local(n.slot!, slots, `${at}.slot`);
        break;
      case 'where':
        if (n.slot! >= 0) local(n.slot!, slots, `${at}.slot`);
        break;
      case 'prop':
        if (!props.has(n.field!)) bad(`${at}.field`, `names the property ${JSON.stringify(n.field)}, which no kind of the pack has`);
        break;
      case 'field':
        stateField(n.field!, `${at}.field`);
        break;
      case '=':
      case '+=':
      case '-=':
        stateField(n.field!, `${at}.field`);
        break;
      case 'draw':
        local(n.slot!, slots, `${at}.slot`);
        stateField((n.list as { field: string }).field, `${at}.list.field`);
        break;
      case 'shuffle':
      case 'put':
      case 'remove':
        stateField((n.list as { field: string }).field, `${at}.list.field`);
        break;
      case 'fn':
        arity(n.args!, r.fns[n.name!].slots, `the fn ${JSON.stringify(n.name)}`, `${at}.args`);
        break;
      case 'pipeline':
        arity(n.args!, r.pipelines[n.name!].params, `the pipeline ${JSON.stringify(n.name)}`, `${at}.args`);
        break;
      case 'call':
        arity(n.args!, r.procs[n.name!].slots, `the proc ${JSON.stringify(n.name)}`, `${at}.args`);
        break;
    }
    for (const [k, x] of Object.entries(n)) if (typeof x === 'object' && x !== null) walk(x, slots, `${at}.${k}`);
  };
  // A start the runtime would never read (a field its entity's kind lacks) is a form of another pack.
  for (const [id, given] of Object.entries(pack.starts)) {
    const entity = pack.entities[id];
    if (!entity) bad(`pack.starts.${id}`, `gives starting state to ${JSON.stringify(id)}, which is no entity of the pack`);
    const kindState = pack.kinds[entity.kind]?.state ?? table();
    for (const f of Object.keys(given)) if (!(f in kindState)) bad(`pack.starts.${id}.${f}`, `starts the field ${JSON.stringify(f)}, which the kind ${JSON.stringify(entity.kind)} has not`);
  }
  const at = 'pack.rules';
  for (const [name, list] of Object.entries(r.actions)) {
    list.forEach((a, i) => {
      const where = `${at}.actions.${name}[${i}]`;
      arity(a.params, a.slots, 'its parameters', `${where}.params`);
      a.checks.forEach((k, j) => {
        if ('slot' in k) local(k.slot, a.slots, `${where}.checks[${j}].slot`);
      });
      walk({ params: a.params, label: a.label, checks: a.checks, body: a.body }, a.slots, where);
    });
  }
  for (const [event, list] of Object.entries(r.triggers)) list.forEach((t, i) => walk(t, t.slots, `${at}.triggers.${event}[${i}]`));
  for (const [name, p] of Object.entries(r.pipelines)) {
    const where = `${at}.pipelines.${name}`;
    if (p.params > p.slots) bad(`${where}.params`, `is ${p.params}, but the pipeline has ${p.slots} locals`);
    walk({ base: p.base, min: p.min, max: p.max }, p.slots, where);
    // A pipeline's modifiers read its arguments, and share one context of the most locals any of them has.
    p.modifiers.forEach((m, i) => walk(m, Math.max(p.params, m.slots), `${where}.modifiers[${i}]`));
  }
  for (const [name, p] of Object.entries(r.procs)) walk(p.body, p.slots, `${at}.procs.${name}.body`);
  for (const [name, f] of Object.entries(r.fns)) walk(f.body, f.slots, `${at}.fns.${name}.body`);
  r.setups.forEach((s, i) => walk(s.body, s.slots, `${at}.setups[${i}].body`));
  if (r.flow) walk(r.flow.body, r.flow.slots, `${at}.flow.body`);
  r.invariants.forEach((v, i) => walk(v, v.slots, `${at}.invariants[${i}]`));
  // Roles, scores and the estimate are read with no locals of their own.
  for (const [kind, roles] of Object.entries(r.roles)) for (const [role, def] of Object.entries(roles)) walk(def.expr, 0, `${at}.roles.${kind}.${role}.expr`);
  for (const k of ['score', 'tiebreak', 'estimate'] as const) walk(r[k], 0, `${at}.${k}`);
  for (const [action, p] of Object.entries(r.prefer ?? {})) walk(p.value, p.slots, `${at}.prefer.${action}.value`);
}

type Read<T> = (v: unknown, at: string) => T;

const show = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : typeof v === 'object' ? 'an object' : String(v));
const fail = (at: string, want: string, v: unknown): never => {
  throw new MalformedPackForm(`${at} should be ${want}, not ${show(v)}`);
};

function record(v: unknown, at: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(at, 'an object', v);
  return v as Record<string, unknown>;
}
const str: Read<string> = (v, at) => (typeof v === 'string' ? v : fail(at, 'a text', v));
const bool: Read<boolean> = (v, at) => (typeof v === 'boolean' ? v : fail(at, 'true or false', v));
const int: Read<number> = (v, at) => (Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : fail(at, 'a whole number ≥ 0', v));
const value: Read<Value> = (v, at) => {
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && !Number.isNaN(v))) return v;
  if (Array.isArray(v)) return v.map((x, i) => value(x, `${at}[${i}]`));
  return fail(at, 'a value (number, text, true/false, none or a list)', v);
};
const list =
  <T>(item: Read<T>): Read<T[]> =>
  (v, at) => (Array.isArray(v) ? v.map((x, i) => item(x, `${at}[${i}]`)) : fail(at, 'a list', v));
const tableOf =
  <T>(item: Read<T>): Read<Table<T>> =>
  (v, at) => table(Object.entries(record(v, at)).map(([k, x]) => [k, item(x, `${at}.${k}`)] as const));
const optional =
  <T>(read: Read<T>): Read<T | undefined> =>
  (v, at) => (v === undefined ? undefined : read(v, at));
const oneOf =
  <T extends string>(...words: T[]): Read<T> =>
  (v, at) => (words.includes(v as T) ? (v as T) : fail(at, words.map((w) => JSON.stringify(w)).join(' or '), v));

/** An object of exactly these fields, each read by its reader; absent optional fields stay absent. */
function fields<T>(readers: { [K in keyof T]-?: Read<T[K]> }): Read<T> {
  return (v, at) => {
    const r = record(v, at);
    const out: Record<string, unknown> = {};
    for (const k in readers) {
      const x = readers[k](r[k], `${at}.${k}`);
      if (x !== undefined) out[k] = x;
    }
    return out as T;
  };
}

/** The members of a union whose `op` may be K (a member may have several tags: `'prop' | 'field'`). */
type Tagged<U extends { op: string }, K> = U extends unknown ? (K extends U['op'] ? U : never) : never;

/** A tagged union read by its `op`: every tag of the type has its fields, and no other tag is read. */
function byOp<U extends { op: string }>(kinds: { [K in U['op']]: { [F in Exclude<keyof Tagged<U, K>, 'op'>]-?: Read<Tagged<U, K>[F]> } }): Read<U> {
  const readers = new Map(Object.entries(kinds).map(([op, spec]) => [op, fields(spec as Record<string, Read<unknown>>)]));
  return (v, at) => {
    const op = record(v, at).op;
    const read = typeof op === 'string' ? readers.get(op) : undefined;
    if (!read) return fail(`${at}.op`, 'an operation of the runtime', op);
    return { op, ...(read(v, at) as object) } as U;
  };
}

const expr: Read<Expr> = (v, at) => exprByOp(v, at);
const exprs = list(expr);
const binary = { left: expr, right: expr };
const exprByOp: Read<Expr> = byOp<Expr>({
  const: { value },
  text: { parts: list((v, at) => (typeof v === 'string' ? v : expr(v, at))) },
  local: { slot: int },
  me: {},
  self: {},
  holder: {},
  it: {},
  value: {},
  players: {},
  current: {},
  prop: { target: expr, field: str, empty: value },
  field: { target: expr, field: str, empty: value },
  not: { operand: expr },
  negate: { operand: expr },
  and: binary,
  or: binary,
  '==': binary,
  '!=': binary,
  in: binary,
  '<': binary,
  '<=': binary,
  '>': binary,
  '>=': binary,
  '*': binary,
  '/': binary,
  '%': binary,
  '+': binary,
  '-': binary,
  concat: binary,
  without: binary,
  join: binary,
  if: { cond: expr, then: expr, else: expr },
  where: { source: expr, cond: expr, slot: (v, at) => (v === -1 ? -1 : int(v, at)) },
  list: { items: exprs },
  range: { from: expr, to: expr },
  fn: { name: called('fn'), args: exprs },
  pipeline: { name: called('pipeline'), args: exprs },
  builtin: { name: (v, at) => (BUILTINS.has(v as string) ? (v as string) : fail(at, 'a built-in function', v)), args: exprs, die: optional(str), rule: optional(str) },
});

const block: Read<Block> = (v, at) => blockFields(v, at);
const recordRef = fields({ target: expr, what: str });
const listRef = fields({ record: recordRef, field: str, what: str });
const write = { record: recordRef, field: str, value: expr };
const rule = optional(str);
const stmt: Read<Stmt> = byOp<Stmt>({
  let: { slot: int, value: expr },
  '=': write,
  '+=': write,
  '-=': write,
  if: { cond: expr, then: block, else: optional(block) },
  for: { slot: int, source: expr, body: block },
  repeat: { times: expr, body: block },
  break: {},
  finish: {},
  require: { cond: expr, reason: expr, rule },
  choose: { source: expr, by: optional(expr), prompt: optional(expr), body: block, slot: int, optional: bool, rule },
  offer: { player: expr, actions: list(called('action')) },
  emit: { event: str, args: exprs },
  log: { text: expr, rule },
  resolving: { body: block },
  turn: { player: expr, body: block, rule },
  shuffle: { list: listRef },
  draw: { list: listRef, slot: int, fromTop: bool },
  put: { list: listRef, value: expr, onTop: bool },
  remove: { list: listRef, value: expr },
  call: { name: called('proc'), args: exprs },
});
/** Blocks are numbered once each: a suspended game's frames name them by number. */
const blockId: Read<number> = (v, at) => {
  const id = int(v, at);
  if (named!.blocks.has(id)) throw new MalformedPackForm(`${at} is ${id}, the number of another block`);
  named!.blocks.add(id);
  return id;
};
const blockFields = fields<Block>({ id: blockId, stmts: list(stmt), lines: list((v, at) => (v === undefined ? undefined : str(v, at))) });

const origin = fields<Origin>({ where: str, rule: str });
const card = optional(fields<CardBinding>({ card: str, roles: list(str) }));
const check: Read<Check> = (v, at) => ('slot' in record(v, at) ? fields({ slot: int, value: expr })(v, at) : fields({ cond: expr, reason: expr, rule })(v, at));
const action = fields<ActionDef>({
  name: str,
  card,
  with: optional(str),
  anytime: bool,
  params: list(fields({ name: str, type: str, domain: expr })),
  slots: int,
  label: optional(expr),
  limit: optional(fields({ times: int, per: oneOf('turn', 'game') })),
  checks: list(check),
  body: block,
  origin,
});
const trigger = fields<TriggerDef>({ card, slots: int, when: optional(expr), body: block, origin });
const modifier = fields<ModifierDef>({ card, anyone: bool, slots: int, when: optional(expr), value: expr, origin });
const pipeline = fields<PipelineDef>({ slots: int, params: int, base: expr, min: optional(expr), max: optional(expr), modifiers: list(modifier) });
const body = fields<BodyDef>({ slots: int, body: block });
const rules = fields<Rules>({
  roles: tableOf(tableOf(fields<RoleDef>({ expr, single: bool }))),
  actions: tableOf(list(action)),
  triggers: tableOf(list(trigger)),
  pipelines: tableOf(pipeline),
  procs: tableOf(body),
  fns: tableOf(fields({ slots: int, body: expr })),
  setups: list(body),
  flow: optional(body),
  invariants: list(fields({ message: expr, holds: expr, slots: int, rule: str })),
  score: optional(expr),
  tiebreak: optional(expr),
  estimate: optional(expr),
  prefer: optional(tableOf(fields({ value: expr, slots: int }))),
});

const field = fields<FieldInfo>({ name: str, type: str, default: value, hidden: bool });
const texts = tableOf(str);
const compiledPack = fields<PackForm['pack']>({
  id: str,
  version: str,
  name: texts,
  languages: list(str),
  players: fields({ min: int, max: int }),
  kinds: tableOf(fields<KindInfo>({ name: str, plural: str, props: tableOf(field), state: tableOf(field), graph: optional(str), roles: list(str) })),
  entities: tableOf(fields<EntityInfo>({ id: str, kind: str, name: texts, text: texts, props: tableOf(value) })),
  starts: tableOf(tableOf(value)),
  byKind: tableOf(list(str)),
  enums: tableOf(list(str)),
  dice: tableOf(list(value)),
  links: tableOf(list(str)),
  hidden: tableOf(list(str)),
  plurals: optional(tableOf(tableOf(texts))),
  rules,
});
