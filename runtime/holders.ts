import { spendMany, stepsMark, stepsSince } from './budget.ts';
import { DRAWING_BUILTINS } from './builtins.ts';
import type { CompiledPack, Expr } from './compiled.ts';
import { ctxFor } from './engine.ts';
import type { Binding, CallPlan, Program } from './program.ts';
import { metaIfAny, metaOf } from './stateMeta.ts';
import type { GameState, Value } from './types.ts';

/**
 * Who holds each card, and so which card rules apply, kept with the state that decides it.
 *
 * A card works for the players its kind's role expressions name. A kind whose roles read nothing
 * but entity fields (`keptKinds`) has its answers kept with the state until a rule writes one of
 * those fields (`roleWritten`, called by every field write of the linked rules). A field read only
 * of the entities whose key field names the card (`where K == self and …`) makes stale, when
 * written, only the card its entity's key names, if any. Kept with them,
 * for each event and each pipeline, is the list of (rule, holder) that apply: an `emit` or a
 * pipeline then consults only the cards in play, so its cost does not grow with the pack's cards.
 * A state's copy (the next state of `apply`) shares what was kept until either writes such a field.
 *
 * Each answer kept holds the steps finding it took, spent again whenever it is taken: a choice then
 * counts the same steps whatever its state's past left kept (the same state loaded from JSON finds
 * everything anew), so a choice near the end of its budget passes or is refused alike, live or
 * replayed.
 */

/** A trigger or modifier, by its place in its event's or pipeline's list, with the holder it runs for. */
export type Call = [number, string | null];

export interface Kept {
  /** By kind number: what is known about that kind's cards in this state. */
  groups: Array<Group | undefined>;
  /** No other state holds `groups`, so it may be changed in place. */
  own: boolean;
  /**
   * The calls of the events and pipelines whose card rules are all of kept kinds, merged across
   * the kinds: found from `groups`, so shared and made stale with them.
   */
  triggers: Map<string, Measured<Call[]>>;
  modifiers: Map<string, Map<string | null, Measured<Call[]>>>;
}

interface Group {
  holders: Map<string, Measured<string[]>>;
  triggers: Map<string, Measured<Call[]>>;
  /** Pipeline name, then the player it is computed for. */
  modifiers: Map<string, Map<string | null, Measured<Call[]>>>;
}

const NONE: Call[] = [];

/** An answer kept, with the steps finding it took. */
interface Measured<T> {
  value: T;
  steps: number;
}

/** A kept answer taken: its steps spent again. */
function taken<T>(hit: Measured<T>): T {
  spendMany(hit.steps);
  return hit.value;
}

/**
 * `value`, found in the steps since `mark` (`stepsMark`), kept in `map` under `key`; not when it was
 * found outside any budget (a caller of the runtime asking between choices), whose steps are not
 * counted, and so could not be spent again.
 */
function kept<K, T>(map: Map<K, Measured<T>>, key: K, value: T, mark: number): T {
  const steps = stepsSince(mark);
  if (Number.isFinite(steps)) map.set(key, { value, steps });
  return value;
}

/**
 * What a write of a field of an entity makes stale: every card of the kinds `groups`, and of the
 * kinds `keyed`, the card the written entity's key field names (group, key field).
 */
export interface Stale {
  groups: number[];
  keyed: Array<[number, string]>;
}

/**
 * The kinds whose holders depend on entity fields alone, numbered, and for each state field, by the
 * kind of the entity written, what a write to it makes stale. A role that reads the current player,
 * calls a function or a pipeline, or rolls, is computed anew each time.
 */
export function keptKinds(pack: CompiledPack): KeptKinds {
  let kinds = keptKindsOf.get(pack);
  if (kinds === undefined) keptKindsOf.set(pack, (kinds = keptKindsNow(pack)));
  return kinds;
}

export interface KeptKinds {
  kindGroup: Map<string, number>;
  roleFields: Map<string, Map<string, Stale>>;
}

/** Found once a pack: each of its programs (one an engine) and a search's every decision (`dealer`) ask. */
const keptKindsOf = new WeakMap<CompiledPack, KeptKinds>();

function keptKindsNow(pack: CompiledPack): KeptKinds {
  const kindGroup = new Map<string, number>();
  const roleFields = new Map<string, Map<string, Stale>>();
  const roles = pack.rules.roles;
  for (const kind of Object.keys(roles)) {
    const reads: Read[] = [];
    if (!Object.values(roles[kind]).every((r) => readsOfRole(pack, kind, r.expr, reads))) continue;
    const g = kindGroup.size;
    kindGroup.set(kind, g);
    for (const [kinds, field, key] of reads) {
      const byKind = roleFields.get(field) ?? new Map<string, Stale>();
      roleFields.set(field, byKind);
      for (const k of kinds ?? Object.keys(pack.kinds)) {
        const stale = byKind.get(k) ?? { groups: [], keyed: [] };
        byKind.set(k, stale);
        if (key === undefined) {
          if (!stale.groups.includes(g)) stale.groups.push(g);
        } else if (!stale.keyed.some(([h, f]) => h === g && f === key)) stale.keyed.push([g, key]);
      }
    }
  }
  return { kindGroup, roleFields };
}

/** The kinds of entity a value may be or hold; null when it could be any. */
type Kinds = Set<string> | null;

/** A field read from entities of some kinds; with `key` when read only of those whose field `key` is the card. */
type Read = [Kinds, string, string?];

const ELEMENT_OF_FIRST = new Set(['first', 'last', 'at', 'take', 'lowest', 'highest', 'neighbours', 'stepToward']);
/** Of `ELEMENT_OF_FIRST`, those that give elements of the first argument itself. */
const SAME_ELEMENTS = new Set(['first', 'last', 'at', 'take', 'lowest', 'highest']);
const OVER_FIRST = new Set(['sum', 'any', 'all', 'lowest', 'highest']);

/**
 * Gathers the state fields a role expression of a `self` kind card reads, each with the kinds of
 * entity it may be read from; false when the role reads more than fields (the current player, a
 * function, a pipeline, a die).
 */
function readsOfRole(pack: CompiledPack, selfKind: string, root: Expr, reads: Read[]): boolean {
  let ok = true;
  // Sets of kinds that stand for entities whose field (the value) is the card: a `where` whose
  // first test is `it.K == self` keeps only those, and `first` and the like take from them.
  const keyedBy = new Map<Set<string>, string>();
  const keyOf = (k: Kinds) => (k ? keyedBy.get(k) : undefined);
  const keyTest = (cond: Expr, slot: number): string | undefined => {
    let e = cond;
    while (e.op === 'and') e = e.left;
    if (e.op !== '==') return undefined;
    const [f, s] = e.left.op === 'self' ? [e.right, e.left] : [e.left, e.right];
    if (s.op !== 'self' || f.op !== 'field') return undefined;
    // The element is `it`, and the where's variable if it names one.
    const t = f.target;
    return t.op === 'it' || (t.op === 'local' && t.slot === slot && slot >= 0) ? f.field : undefined;
  };
  const withSlot = (slots: Map<number, Kinds>, slot: number, k: Kinds) => (slot >= 0 ? new Map(slots).set(slot, k) : slots);
  // The first test runs on every element; those after it (`and`), only on the keyed ones.
  const conjuncts = (e: Expr, all: Kinds, keyed: Kinds, slot: number, slots: Map<number, Kinds>): void => {
    if (e.op === 'and' && keyed !== all) {
      conjuncts(e.left, all, keyed, slot, slots);
      walk(e.right, keyed, withSlot(slots, slot, keyed));
    } else walk(e, all, withSlot(slots, slot, all));
  };
  const union = (a: Kinds, b: Kinds): Kinds => (a && b ? new Set([...a, ...b]) : null);
  const none: Kinds = new Set();
  const ofValue = (v: Value): Kinds => {
    if (typeof v === 'string') {
      const k = pack.kindOf(v);
      return k ? new Set([k]) : none;
    }
    return Array.isArray(v) ? v.reduce<Kinds>((acc, x) => union(acc, ofValue(x)), none) : none;
  };
  const ofField = (target: Kinds, field: string, where: 'props' | 'state'): Kinds => {
    if (!target) return null;
    let out: Kinds = none;
    for (const k of target) {
      const type = pack.kinds[k]?.[where][field]?.type;
      const named = type && /^(?:list<)?(\w+)>?\??$/.exec(type)?.[1];
      if (named && pack.kinds[named]) out = union(out, new Set([named]));
    }
    return out;
  };
  const walk = (e: Expr, it: Kinds, slots: Map<number, Kinds>): Kinds => {
    switch (e.op) {
      case 'const':
        return ofValue(e.value);
      case 'players':
        return new Set(['player']);
      case 'self':
        return new Set([selfKind]);
      case 'it':
        return it;
      case 'local':
        return slots.get(e.slot) ?? null;
      case 'me':
      case 'holder':
      case 'value':
        return null;
      case 'current':
      case 'fn':
      case 'pipeline':
        ok = false;
        return null;
      case 'field': {
        const target = walk(e.target, it, slots);
        reads.push([target, e.field, keyOf(target)]);
        return ofField(target, e.field, 'state');
      }
      case 'prop':
        return ofField(walk(e.target, it, slots), e.field, 'props');
      case 'where': {
        const source = walk(e.source, it, slots);
        const key = keyTest(e.cond, e.slot);
        const keyed = key !== undefined && source ? new Set(source) : source;
        if (key !== undefined && keyed) keyedBy.set(keyed, key);
        conjuncts(e.cond, source, keyed, e.slot, slots);
        return keyed;
      }
      case 'builtin': {
        if (DRAWING_BUILTINS.has(e.name)) ok = false;
        const first = e.args[0] ? walk(e.args[0], it, slots) : none;
        for (const a of e.args.slice(1)) walk(a, OVER_FIRST.has(e.name) ? first : it, slots);
        if (!ELEMENT_OF_FIRST.has(e.name)) return none;
        // A neighbour of an entity is another entity: of its kinds, not of its key.
        return first && !SAME_ELEMENTS.has(e.name) && keyOf(first) !== undefined ? new Set(first) : first;
      }
      case 'text':
        for (const p of e.parts) if (typeof p !== 'string') walk(p, it, slots);
        return none;
      case 'not':
      case 'negate':
        walk(e.operand, it, slots);
        return none;
      case 'if':
        walk(e.cond, it, slots);
        return union(walk(e.then, it, slots), walk(e.else, it, slots));
      case 'list':
        return e.items.reduce<Kinds>((acc, x) => union(acc, walk(x, it, slots)), none);
      case 'range':
        walk(e.from, it, slots);
        walk(e.to, it, slots);
        return none;
      case 'concat':
      case 'without':
        return union(walk(e.left, it, slots), walk(e.right, it, slots));
      default:
        walk(e.left, it, slots);
        walk(e.right, it, slots);
        return none;
    }
  };
  walk(root, null, new Map());
  return ok;
}

/** A list of card rules split by where their holders come from, in the list's order within each part. */
export function planCalls(rules: Array<{ card?: Binding }>, groupOf: (card: string) => number | undefined): CallPlan {
  const plan: CallPlan = { fixed: [], kept: [], loose: [] };
  rules.forEach((r, i) => {
    if (!r.card) return void plan.fixed.push([i, null]);
    const g = groupOf(r.card.card);
    if (g === undefined) return void plan.loose.push(i);
    const part = plan.kept.find(([x]) => x === g);
    if (part) part[1].push(i);
    else plan.kept.push([g, [i]]);
  });
  return plan;
}

/**
 * A rule is about to write a field of `rec` that some roles read (`stale`): what was kept about
 * the cards whose holders it may change is stale.
 */
export function roleWritten(st: GameState, stale: Stale, rec: Record<string, Value>): void {
  const k = metaIfAny(st)?.kept;
  if (!k) return;
  if (stale.groups.length) {
    owned(k);
    for (const g of stale.groups) k.groups[g] = undefined;
    k.triggers = new Map();
    k.modifiers = new Map();
  }
  for (const [g, key] of stale.keyed) {
    const card = rec[key];
    if (typeof card !== 'string') continue;
    // The card's holders change for this state alone: what it finds of them from now on must go
    // into a group, an array and merged calls no state it shares them with reads, even when
    // nothing of the card is kept yet (the others, not having written the field, still find the
    // holders they had). The group keeps the other cards' holders.
    owned(k);
    k.triggers = new Map();
    k.modifiers = new Map();
    const grp = k.groups[g];
    if (!grp) continue;
    const prefix = `${card}/`;
    const holders = new Map(grp.holders);
    for (const h of grp.holders.keys()) if (h.startsWith(prefix)) holders.delete(h);
    k.groups[g] = { holders, triggers: new Map(), modifiers: new Map() };
  }
}

/** `k.groups` is this state's alone, to change. */
function owned(k: Kept): void {
  if (!k.own) {
    k.groups = k.groups.slice();
    k.own = true;
  }
}

/** `next` is a copy of `st` (same fields): it starts with what `st` knows. */
export function shareHolders(st: GameState, next: GameState): void {
  const k = metaIfAny(st)?.kept;
  if (!k) return;
  k.own = false;
  metaOf(next).kept = { groups: k.groups, own: false, triggers: k.triggers, modifiers: k.modifiers };
}

/**
 * The state was edited outside the rules (a scenario's setup, a loaded state): nothing kept
 * holds, its records by number (`recordsByNumber` in clone.ts) neither, as a record may have been
 * put in its table by hand, maybe another state's: none is known to be its own (`writableRecord`
 * copies each before writing it, and a new game takes none of them, `ownsEveryRecord`).
 */
export function forgetHolders(st: GameState): void {
  // A state loaded from JSON or spread by hand has no meta yet: it gets one, owning no record either.
  const m = metaOf(st);
  m.kept = undefined;
  m.byNumber = undefined;
  m.owned = null;
}

function keptIn(st: GameState): Kept {
  const m = metaOf(st);
  let k = m.kept;
  if (!k) {
    k = { groups: [], own: true, triggers: new Map(), modifiers: new Map() };
    m.kept = k;
  }
  return k;
}

function groupIn(st: GameState, g: number): Group {
  const k = keptIn(st);
  let grp = k.groups[g];
  if (!grp) {
    // Sharing states have written none of this kind's role fields since they began sharing (a
    // write leaves the shared list), so what one of them finds holds for all.
    grp = { holders: new Map(), triggers: new Map(), modifiers: new Map() };
    k.groups[g] = grp;
  }
  return grp;
}

/**
 * Holders by card and roles, while the state cannot change (listing legal choices runs every
 * candidate's checks on one state), for the kinds whose holders are not kept with the state.
 */
let frozenHolders: Map<string, string[]> | null = null;
/** Whether the state is frozen now; its holders' map is made at the first card asked (most listings ask none). */
let frozen = false;

/**
 * `run(x, y, z, w)` with the state frozen. The arguments are passed through, so that a caller
 * listing at every prompt gives a function made once rather than a closure made per call.
 */
export function withFrozenState<T, X = undefined, Y = undefined, Z = undefined, W = undefined>(run: (x: X, y: Y, z: Z, w: W) => T, x?: X, y?: Y, z?: Z, w?: W): T {
  if (frozen) return run(x as X, y as Y, z as Z, w as W);
  frozen = true;
  try {
    return run(x as X, y as Y, z as Z, w as W);
  } finally {
    frozen = false;
    frozenHolders = null;
  }
}

/** The players for whom a card's rule works now. */
export function holdersOf(prog: Program, st: GameState, card: Binding): string[] {
  const g = prog.kindGroup.get(prog.pack.kindOf(card.card)!);
  if (g !== undefined) {
    const found = groupIn(st, g).holders;
    const hit = found.get(card.key);
    if (hit !== undefined) return taken(hit);
    const mark = stepsMark();
    return kept(found, card.key, holdersNow(prog, st, card), mark);
  }
  // Found once a listing, which always begins with none: every listing of a state counts the same.
  if (!frozen) return holdersNow(prog, st, card);
  const cache = (frozenHolders ??= new Map());
  let hit = cache.get(card.key);
  if (!hit) {
    hit = holdersNow(prog, st, card);
    cache.set(card.key, hit);
  }
  return hit;
}

function holdersNow(prog: Program, st: GameState, card: Binding): string[] {
  const kind = prog.pack.kindOf(card.card)!;
  const roles = prog.roles[kind];
  const names = card.roles.length ? card.roles : prog.pack.kinds[kind].roles.slice(0, 1);
  const c = ctxFor(st, prog, 0, null, card.card);
  const out: string[] = [];
  for (const r of names) {
    const fn = roles?.[r];
    if (!fn) continue;
    for (const p of fn(c)) if (!out.includes(p)) out.push(p);
  }
  return out;
}

/*
 * The functions below run on every `emit` and every pipeline: they create no closures (tsx names
 * each closure made, at a cost per call).
 */

/** The triggers on `event` that run now, in the pack's order, each once for each holder of its card. */
export function triggerCalls(prog: Program, st: GameState, event: string): Call[] {
  const plan = prog.triggerPlans[event];
  if (!plan) return NONE;
  if (!plan.kept.length || plan.loose.length) return triggerCallsNow(prog, st, event, plan);
  const k = keptIn(st);
  const hit = k.triggers.get(event);
  if (hit !== undefined) return taken(hit);
  const mark = stepsMark();
  return kept(k.triggers, event, triggerCallsNow(prog, st, event, plan), mark);
}

function triggerCallsNow(prog: Program, st: GameState, event: string, plan: CallPlan): Call[] {
  const triggers = prog.triggers[event];
  let out: Call[] = plan.fixed;
  for (let j = 0; j < plan.kept.length; j++) {
    const [g, which] = plan.kept[j];
    const grp = groupIn(st, g);
    const hit = grp.triggers.get(event);
    const mark = stepsMark();
    out = merged(out, hit !== undefined ? taken(hit) : kept(grp.triggers, event, callsOf(prog, st, which, triggers, false, null), mark));
  }
  return plan.loose.length ? merged(out, callsOf(prog, st, plan.loose, triggers, false, null)) : out;
}

/**
 * The modifiers of pipeline `name` that apply for `me`, in the pack's order, with their holder: a
 * modifier `anyone` gets its card's first holder, any other one works only for a holder who is `me`.
 */
export function modifierCalls(prog: Program, st: GameState, name: string, me: string | null): Call[] {
  const plan = prog.modifierPlans[name];
  if (!plan.kept.length || plan.loose.length) return modifierCallsNow(prog, st, name, me, plan);
  const k = keptIn(st);
  let byMe = k.modifiers.get(name);
  if (!byMe) {
    byMe = new Map();
    k.modifiers.set(name, byMe);
  }
  const hit = byMe.get(me);
  if (hit !== undefined) return taken(hit);
  const mark = stepsMark();
  return kept(byMe, me, modifierCallsNow(prog, st, name, me, plan), mark);
}

function modifierCallsNow(prog: Program, st: GameState, name: string, me: string | null, plan: CallPlan): Call[] {
  const modifiers = prog.pipelines[name].modifiers;
  let out: Call[] = plan.fixed;
  for (let j = 0; j < plan.kept.length; j++) {
    const [g, which] = plan.kept[j];
    const grp = groupIn(st, g);
    let byMe = grp.modifiers.get(name);
    if (!byMe) {
      byMe = new Map();
      grp.modifiers.set(name, byMe);
    }
    const hit = byMe.get(me);
    const mark = stepsMark();
    out = merged(out, hit !== undefined ? taken(hit) : kept(byMe, me, callsOf(prog, st, which, modifiers, true, me), mark));
  }
  return plan.loose.length ? merged(out, callsOf(prog, st, plan.loose, modifiers, true, me)) : out;
}

/** `which` of `rules` with their holders: every holder for a trigger; for a modifier, as `modifierCalls` says. */
function callsOf(prog: Program, st: GameState, which: number[], rules: Array<{ card?: Binding; anyone?: boolean }>, modifier: boolean, me: string | null): Call[] {
  const out: Call[] = [];
  for (const i of which) {
    const held = holdersOf(prog, st, rules[i].card!);
    if (!modifier) for (const h of held) out.push([i, h]);
    else if (rules[i].anyone) {
      if (held.length) out.push([i, held[0]]);
    } else if (me !== null && held.includes(me)) out.push([i, me]);
  }
  return out;
}

/** Two lists of calls, each in the pack's order, as one in that order; a list is returned as it is when the other is empty. */
function merged(a: Call[], b: Call[]): Call[] {
  if (!b.length) return a;
  if (!a.length) return b;
  const out: Call[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i][0] <= b[j][0] ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}
