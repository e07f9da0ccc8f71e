import type { Block, CompiledPack, Stmt } from './compiled.ts';
import { programOf } from './link.ts';

/**
 * Which of a pack's rules a game evaluated, and when: for a caller that plays a game again after an
 * edit of the pack and wants to start from the first choice the edit could change (the playground).
 *
 * A pack's rules are cut into units (`ruleUnits`): each function, procedure, pipeline (its base and
 * bounds), modifier, trigger and action, the setups, the flow, the invariants and the scoring, each
 * with the part of the compiled pack it is made of; everything else (the pack's data, which rules
 * exist, which card each binds, the roles, any other table of rules but the bots' preferences,
 * which no choice applied reads) is the pack's `rest`. Two packs with the same rest run the same code for the
 * same unit wherever their units are the same, so a game's choices evaluated with only unchanged
 * units give the same states under both.
 *
 * A recording pack (`recordingPack`) plays exactly as its pack, on the interpreter, and notes for
 * each unit the first phase (a number the caller sets, such as the choice being applied) in which
 * any of its code ran. Wrapping the linked handlers keeps the cost out of every other game; it
 * holds as long as the interpreter (link.ts) runs a unit's code only through the handlers the
 * program's tables and blocks give (no unit's code copied into another's) and starts a block
 * anywhere but at its first statement only to resume a suspended frame (engine.ts), which
 * test/playground-replay-line.test.ts checks against replays from the start on real edits.
 */

/** A pack's rules as units, in a fixed order, and the rest of the pack: all plain data, to compare as JSON. */
export interface RuleUnits {
  keys: string[];
  parts: unknown[];
  rest: unknown;
}

/** What a recording pack has noted: `first[i]` is the first phase unit `keys[i]` ran in, or -1. */
export interface RuleUse {
  keys: readonly string[];
  first: Int32Array;
  /** Set by the caller before each part of the game it wants told apart. */
  phase: number;
  /** After the caller has set units' `first` back to -1: notes them again when they next run. */
  rearm(): void;
}

/** Every block of a rule, its nested ones included. */
function blocksOf(b: Block, out: number[] = []): number[] {
  out.push(b.id);
  for (const s of b.stmts) for (const inner of innerBlocks(s)) blocksOf(inner, out);
  return out;
}

function innerBlocks(s: Stmt): Block[] {
  switch (s.op) {
    case 'if':
      return s.else ? [s.then, s.else] : [s.then];
    case 'for':
    case 'repeat':
    case 'choose':
    case 'resolving':
    case 'turn':
      return [s.body];
    default:
      return [];
  }
}

/**
 * Units and what each is made of. Origins and statement lines are part of a unit (they reach the
 * log and messages), and block numbers are too (a suspended game's frames name blocks by number).
 * A trigger with neither a condition nor a statement runs no code of its own that could note it,
 * so it belongs to the rest.
 */
export function ruleUnits(pack: CompiledPack): RuleUnits {
  const r = pack.rules;
  const keys: string[] = [];
  const parts: unknown[] = [];
  const unit = (key: string, part: unknown) => {
    keys.push(key);
    parts.push(part);
  };
  for (const [name, f] of Object.entries(r.fns)) unit(`fn ${name}`, f);
  for (const [name, p] of Object.entries(r.procs)) unit(`proc ${name}`, p);
  const pipelines: unknown[] = [];
  for (const [name, p] of Object.entries(r.pipelines)) {
    unit(`pipeline ${name}`, { slots: p.slots, params: p.params, base: p.base, min: p.min, max: p.max });
    p.modifiers.forEach((m, i) => unit(`modifier ${name} ${i}`, { slots: m.slots, when: m.when, value: m.value, origin: m.origin }));
    pipelines.push([name, p.modifiers.map((m) => ({ card: m.card, anyone: m.anyone }))]);
  }
  const triggers: unknown[] = [];
  for (const [event, list] of Object.entries(r.triggers)) {
    list.forEach((t, i) => {
      if (t.when || t.body.stmts.length) unit(`trigger ${event} ${i}`, { slots: t.slots, when: t.when, body: t.body, origin: t.origin });
    });
    triggers.push([event, list.map((t) => (t.when || t.body.stmts.length ? { card: t.card } : t))]);
  }
  const actions: unknown[] = [];
  for (const [name, list] of Object.entries(r.actions)) {
    list.forEach((a, i) => unit(`action ${name} ${i}`, { params: a.params, slots: a.slots, label: a.label, checks: a.checks, body: a.body, origin: a.origin }));
    actions.push([name, list.map((a) => ({ name: a.name, card: a.card, with: a.with, anytime: a.anytime, limit: a.limit, params: a.params.length }))]);
  }
  r.setups.forEach((s, i) => unit(`setup ${i}`, s));
  if (r.flow) unit('flow', r.flow);
  r.invariants.forEach((v, i) => unit(`invariant ${i}`, v));
  if (r.score) unit('score', r.score);
  if (r.tiebreak) unit('tiebreak', r.tiebreak);
  if (r.estimate) unit('estimate', r.estimate);
  // A preference (`scoring: prefer`) is read by bots choosing, never while a choice is applied: the
  // states of a game's choices are the same under any preference, so it is neither a unit nor the rest.
  const { fns, procs, pipelines: _p, triggers: _t, actions: _a, setups, flow, invariants, score, tiebreak, estimate, prefer: _prefer, ...other } = r;
  const { rules: _r, kindOf: _k, expression: _e, ...data } = pack;
  const rest = {
    data,
    other,
    pipelines,
    triggers,
    actions,
    shape: [Object.keys(fns), Object.keys(procs), setups.length, !!flow, invariants.length, !!score, !!tiebreak, !!estimate],
  };
  return { keys, parts, rest };
}

/** A pack's recording: the pack that plays it, what it noted, and the units it notes (`ruleUnits` of the pack). */
export interface Recording {
  pack: CompiledPack;
  use: RuleUse;
  units: RuleUnits;
}

const recordings = new WeakMap<CompiledPack, Recording>();

/**
 * A pack that plays as `pack` does, on the interpreter, noting in `use` the first phase each unit
 * of `ruleUnits(pack)` ran in. Start its games with `newGame(recording, { engine: 'interpreter' })`
 * or `attach(recording, state, 'interpreter')`; `apply` then goes on with it. One per pack.
 *
 * A unit's handlers are wrapped only until it is noted: the first run puts the linked handlers back,
 * so a long game runs at the plain interpreter's speed once the units it uses have run.
 * `use.rearm()` wraps again every unit whose `first` the caller has set back to -1.
 */
export function recordingPack(pack: CompiledPack): Recording {
  const known = recordings.get(pack);
  if (known) return known;
  const copy: CompiledPack = { ...pack };
  const prog = programOf(copy, 'interpreter');
  const units = ruleUnits(pack);
  const { keys } = units;
  const index = new Map(keys.map((k, i) => [k, i]));
  const first = new Int32Array(keys.length).fill(-1);
  // Where each unit's handlers sit in the program: a table or block (`owners`) and its key, the linked handler and its wrapper.
  type Owner = Record<string | number, unknown>;
  const owners: Owner[] = [];
  const props: Array<string | number> = [];
  const linked: unknown[] = [];
  const wrappers: unknown[] = [];
  const slotsOf: number[][] = keys.map(() => []);
  const set = (i: number, to: unknown[]) => {
    for (const s of slotsOf[i]) owners[s][props[s]] = to[s];
  };
  const use: RuleUse = {
    keys,
    first,
    phase: 0,
    rearm() {
      for (let i = 0; i < first.length; i++) set(i, first[i] < 0 ? wrappers : linked);
    },
  };
  // Handlers take one to four arguments (a statement or expression its context, an action's checks more).
  const wrap = (key: string, owner: Owner, prop: string | number) => {
    const i = index.get(key)!;
    const g = owner[prop] as (a: unknown, b: unknown, c: unknown, d: unknown) => unknown;
    slotsOf[i].push(owners.length);
    owners.push(owner);
    props.push(prop);
    linked.push(g);
    wrappers.push((a: unknown, b: unknown, c: unknown, d: unknown) => {
      if (first[i] < 0) {
        first[i] = use.phase;
        set(i, linked);
      }
      return g(a, b, c, d);
    });
  };
  const blockUnit = new Map<number, string>();
  const ownBlocks = (key: string, b: Block) => {
    for (const id of blocksOf(b)) blockUnit.set(id, key);
  };
  const r = pack.rules;
  for (const name of Object.keys(r.fns)) wrap(`fn ${name}`, prog.fns[name] as unknown as Owner, 'body');
  for (const [name, p] of Object.entries(r.procs)) ownBlocks(`proc ${name}`, p.body);
  for (const name of Object.keys(r.pipelines)) {
    const p = prog.pipelines[name];
    const key = `pipeline ${name}`;
    const owner = p as unknown as Owner;
    wrap(key, owner, 'base');
    if (p.min) wrap(key, owner, 'min');
    if (p.max) wrap(key, owner, 'max');
    p.modifiers.forEach((m, i) => {
      if (m.when) wrap(`modifier ${name} ${i}`, m as unknown as Owner, 'when');
      wrap(`modifier ${name} ${i}`, m as unknown as Owner, 'value');
    });
  }
  for (const [event, list] of Object.entries(r.triggers)) {
    list.forEach((t, i) => {
      const key = `trigger ${event} ${i}`;
      if (!index.has(key)) return;
      const code = prog.triggers[event][i];
      if (code.when) wrap(key, code as unknown as Owner, 'when');
      ownBlocks(key, t.body);
    });
  }
  for (const [name, list] of Object.entries(r.actions)) {
    list.forEach((a, i) => {
      const key = `action ${name} ${i}`;
      const code = prog.actions[name][i];
      const owner = code as unknown as Owner;
      wrap(key, owner, 'pre');
      wrap(key, owner, 'holdsWith');
      for (const p of code.params) wrap(key, p as unknown as Owner, 'domain');
      if (code.label) wrap(key, owner, 'label');
      ownBlocks(key, a.body);
    });
  }
  r.setups.forEach((s, i) => ownBlocks(`setup ${i}`, s.body));
  if (r.flow) ownBlocks('flow', r.flow.body);
  prog.invariants.forEach((v, i) => {
    wrap(`invariant ${i}`, v as unknown as Owner, 'holds');
    wrap(`invariant ${i}`, v as unknown as Owner, 'message');
  });
  const whole = prog as unknown as Owner;
  if (prog.score) wrap('score', whole, 'score');
  if (prog.tiebreak) wrap('tiebreak', whole, 'tiebreak');
  if (prog.estimate) wrap('estimate', whole, 'estimate');
  for (const b of prog.blocks) {
    const key = b && blockUnit.get(b.id);
    if (key === undefined) continue;
    if (!b.stmts.length) continue;
    // A block's statements run from its first, but in a frame resumed (engine.ts, `runBlock`): a
    // frame of a block entered earlier in the same game, whose unit was noted then. The first
    // statement tells when a unit's blocks run. The block gets its own list of statements, so that
    // putting the handler back touches this program alone.
    b.stmts = b.stmts.slice();
    wrap(key, b.stmts as unknown as Owner, 0);
  }
  use.rearm();
  const made = { pack: copy, use, units };
  recordings.set(pack, made);
  return made;
}
