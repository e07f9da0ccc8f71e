import { placed, step } from './budget.ts';
import { logLine } from './log.ts';
import { modifierCalls, triggerCalls, type Call } from './holders.ts';
import { BREAK, FINISH, NORMAL, SUSPEND, type BlockCode, type ExprFn, type PipelineCode, type Program, type RunCtx, type Signal } from './program.ts';
import { Refusal } from './refusal.ts';
import type { Frame, GameState, Prompt, Value } from './types.ts';

export { holdersOf, withFrozenState } from './holders.ts';

export function ctxFor(st: GameState, prog: Program, slots: number, me: string | null, self: string | null = null, holder: string | null = null, step = st.choices.length): RunCtx {
  return { st, prog, env: locals(slots), me, self, holder, it: null, value: null, step, resolving: false };
}

/**
 * `n` empty locals. A few are written as a literal, which V8 makes at their size: pushed one by one
 * onto `[]`, even one local took room for seventeen, and contexts are made all the time (a trigger's,
 * an expression's when none is free, each stepped choice's, a drive's first pick). More are made by a
 * loop, as `emptied` empties them: `new Array(n).fill(null)` makes a holey array through a call V8
 * does not inline, which cost a small game's choice more than its rules.
 */
export function locals(n: number): Value[] {
  if (n <= 2) return n === 0 ? [] : n === 1 ? [null] : [null, null];
  const env: Value[] = [];
  for (let i = 0; i < n; i++) env.push(null);
  return env;
}

/** `env` with every local emptied (see `locals`). */
export function emptied(env: Value[]): Value[] {
  for (let i = 0; i < env.length; i++) env[i] = null;
  return env;
}

/**
 * A context for a call inside `c` (a function, pipeline, modifier, trigger, block). Every context is
 * made here with its fields in one order, so the engine's property reads stay monomorphic.
 */
export function innerCtx(c: RunCtx, env: Value[], me: string | null, self: string | null, holder: string | null, it: Value, value: Value, resolving: boolean): RunCtx {
  return { st: c.st, prog: c.prog, env, me, self, holder, it, value, step: c.step, resolving };
}

/**
 * A context for an expression called from `c` (a function's body, a pipeline's base or modifier),
 * with `slots` empty locals: one of `free` when there is one. An expression cannot suspend, so no
 * context of one is kept once it has its value; its caller gives it back to `free` then (a refused
 * choice leaves it to the garbage collector). Every call of the rules made contexts, and most of
 * what a choice allocated was contexts.
 */
export function exprCtx(free: RunCtx[], slots: number, c: RunCtx, self: string | null, holder: string | null, value: Value): RunCtx {
  const x = free.pop();
  if (x === undefined) return innerCtx(c, locals(slots), c.me, self, holder, null, value, c.resolving);
  return readied(x, c.st, c.prog, c.me, self, holder, value, c.step, c.resolving);
}

/** `x`, a context free again, made as a new one of its locals would be: every field set, its locals emptied, `it` none. */
export function readied(x: RunCtx, st: GameState, prog: Program, me: string | null, self: string | null, holder: string | null, value: Value, step: number, resolving: boolean): RunCtx {
  x.st = st;
  x.prog = prog;
  emptied(x.env);
  x.me = me;
  x.self = self;
  x.holder = holder;
  x.it = null;
  x.value = value;
  x.step = step;
  x.resolving = resolving;
  return x;
}

/**
 * A suspended frame. Every frame is made here with all its fields in one order, those it has not
 * left undefined (which JSON leaves out, so a state's JSON is what it was): frames keep one shape,
 * and resuming reads their fields without V8 looking each up anew. The order is the one each kind
 * of frame had when made apart: an `emit` before `resolving`, `resolving` before a loop.
 */
export function newFrame(block: number, pc: number, env: Value[], me: string | null, self: string | null, holder: string | null, resolving: boolean, emit?: Frame['emit'], loop?: Frame['loop'], reprompt?: Frame['reprompt']): Frame {
  return { block, pc, env, me, self, holder, emit, resolving: resolving ? true : undefined, loop, reprompt };
}

/**
 * The frame a block (`block`, its number) leaves where a suspension unwinds it, to go on at statement
 * `pc` (a loop's body: at its next round, `loop`). The generated flow (codegen/emitFlow.ts) leaves
 * its blocks' frames by it too, so a suspended state is the same whichever engine made it.
 */
export function frameOf(block: number, pc: number, c: RunCtx, loop?: Frame['loop']): Frame {
  return newFrame(block, pc, suspendedEnv(c), c.me, c.self, c.holder, c.resolving, undefined, loop);
}

/**
 * The blocks of one rule share its locals, so the frames its suspension leaves, one per enclosing
 * block, keep the same copy of them: nothing runs while a suspension unwinds, no frame's locals are
 * ever written (`resume` runs a copy), and each suspension makes its own prompt.
 */
const unwinding: { prompt: Prompt | null; env: Value[] | null; copy: Value[] } = { prompt: null, env: null, copy: [] };

function suspendedEnv(c: RunCtx): Value[] {
  const u = unwinding;
  const prompt = c.st.prompt;
  if (u.prompt === prompt && u.env === c.env) return u.copy;
  u.prompt = prompt;
  u.env = c.env;
  u.copy = c.env.slice();
  return u.copy;
}

/** Suspension keeps the continuation of every enclosing block, innermost first. */
export function pushFrame(st: GameState, f: Frame): void {
  st.prompt!.frames.push(f);
}

/**
 * Sees the state before every statement while a scenario checks a moment inside a choice (`when: -
 * logged: …`). Held in an object, not a variable of this module, for the generated code's blocks to
 * read as `runBlock` does (`H.watch`, emit.ts).
 */
export const watch: { statement: ((st: GameState) => void) | undefined } = { statement: undefined };

/** Whether a scenario watches statements now: a game set up under its eyes must run its setup. */
export function watching(): boolean {
  return watch.statement !== undefined;
}

export function watchStatements<T>(see: (st: GameState) => void, run: () => T): T {
  const outer = watch.statement;
  watch.statement = see;
  try {
    return run();
  } finally {
    watch.statement = outer;
  }
}

/**
 * Runs `block` from statement `pc`. A refusal of the statement running (`refuse`) is named here by
 * the innermost block it passes (`placed`): the statement whose call threw it. One made by the
 * block's own step, before a statement began, is left to the enclosing block: its statement is the
 * one running.
 */
export function runBlock(block: BlockCode, pc: number, c: RunCtx): Signal {
  // Given whole, a block runs as its generated function from its start, which does all that follows;
  // resumed at a later statement, it runs here.
  if (pc === 0 && block.whole !== undefined) return block.whole(c);
  const stmts = block.stmts;
  for (let i = pc; i < stmts.length; i++) {
    step();
    watch.statement?.(c.st);
    let sig: Signal;
    try {
      sig = stmts[i](c);
    } catch (e) {
      throw placed(e, block.lines[i]);
    }
    if (sig === NORMAL) continue;
    if (sig === SUSPEND) {
      if (i + 1 < stmts.length) pushFrame(c.st, frameOf(block.id, i + 1, c));
      return SUSPEND;
    }
    return sig;
  }
  return NORMAL;
}

/** `for x in items { body }`, from item `start`. */
export function runFor(body: BlockCode, items: Value[], start: number, slot: number, c: RunCtx): Signal {
  for (let i = start; i < items.length; i++) {
    step();
    c.env[slot] = items[i];
    const sig = runBlock(body, 0, c);
    if (sig === BREAK) return NORMAL;
    if (sig === FINISH) return FINISH;
    if (sig === SUSPEND) {
      // Pushed after the last item too: a `break` after the suspension must find this loop's frame,
      // not skip the frame of an enclosing loop.
      pushFrame(c.st, frameOf(body.id, 0, c, { items, index: i + 1, slot }));
      return SUSPEND;
    }
  }
  return NORMAL;
}

/** `repeat n` and `loop max n`, from round `count`. */
export function runRepeat(body: BlockCode, count: number, max: number, c: RunCtx): Signal {
  for (let i = count; i < max; i++) {
    step();
    const sig = runBlock(body, 0, c);
    if (sig === BREAK) return NORMAL;
    if (sig === FINISH) return FINISH;
    if (sig === SUSPEND) {
      pushFrame(c.st, frameOf(body.id, 0, c, { count: i + 1, max }));
      return SUSPEND;
    }
  }
  return NORMAL;
}

/** `emit event(args)`: every trigger on it, in the pack's order, a card's once for each of its holders. */
let emitDepth = 0;
const MAX_EMIT_DEPTH = 64;

export function runEmit(event: string, args: Value[], c: RunCtx, pending?: Array<[number, string | null]>): Signal {
  if (emitDepth >= MAX_EMIT_DEPTH) throw new Refusal(`the rules set each other off more than ${MAX_EMIT_DEPTH} times over (at \`${event}\`): an endless loop in the pack`);
  emitDepth++;
  try {
    return emitNow(event, args, c, pending);
  } finally {
    emitDepth--;
  }
}

function emitNow(event: string, args: Value[], c: RunCtx, pending?: Array<[number, string | null]>): Signal {
  const { prog, st } = c;
  const triggers = prog.triggers[event];
  const calls = pending ?? triggerCalls(prog, st, event);
  for (let k = 0; k < calls.length; k++) {
    const [i, holder] = calls[k];
    const t = triggers[i];
    const tc = innerCtx(c, locals(t.slots), holder ?? c.me, t.card?.card ?? null, holder, null, null, c.resolving);
    for (let a = 0; a < args.length; a++) tc.env[a] = args[a];
    if (t.when && t.when(tc) !== true) continue;
    logLine(st, c.step, t.origin.rule, t.origin.where, holder ?? undefined);
    const sig = runBlock(t.body, 0, tc);
    if (sig === FINISH) return FINISH;
    if (sig === SUSPEND) {
      if (k + 1 < calls.length) pushFrame(st, newFrame(t.body.id, t.body.stmts.length, [], c.me, c.self, c.holder, c.resolving, { event, args, pending: calls.slice(k + 1) }));
      return SUSPEND;
    }
  }
  return NORMAL;
}

/**
 * Runs suspended frames in order until the game asks a player again or ends. A `break` skips
 * frames up to the loop it leaves.
 */
export function resume(frames: Frame[], prog: Program, st: GameState, step: number, endsGame = true): void {
  for (let i = 0; i < frames.length; i++) {
    const f = frames[i];
    // The frame may be shared with the state it was copied from (`cloneState`): its variables are copied before running writes them.
    const c: RunCtx = { st, prog, env: f.env.slice(), me: f.me, self: f.self, holder: f.holder, it: null, value: null, step, resolving: f.resolving === true };
    if (f.reprompt) {
      st.prompt = { ...f.reprompt, frames: [...f.reprompt.frames, ...frames.slice(i + 1)] };
      return;
    }
    const block = prog.blocks[f.block];
    let sig: Signal;
    if (f.emit) sig = runEmit(f.emit.event, f.emit.args, c, f.emit.pending);
    else if (f.loop && 'items' in f.loop) sig = runFor(block, f.loop.items, f.loop.index, f.loop.slot, c);
    else if (f.loop) sig = runRepeat(block, f.loop.count, f.loop.max, c);
    else sig = runBlock(block, f.pc, c);
    if (sig === SUSPEND) {
      const waiting = st.prompt!.frames;
      for (let j = i + 1; j < frames.length; j++) waiting.push(frames[j]);
      return;
    }
    if (sig === FINISH) {
      endsGame = true;
      break;
    }
    if (sig === BREAK) {
      while (i + 1 < frames.length && !frames[i + 1].loop) i++;
      i++;
    }
  }
  if (endsGame) {
    st.over = true;
    st.prompt = null;
  }
}

const NO_CALLS: readonly Call[] = [];

/**
 * A pipeline's value: its base, then each applicable modifier in pack order, then its bounds. The
 * arguments are evaluated here, straight into the base's locals; the modifiers share one context
 * (an expression keeps none once it has its value), their locals emptied before each.
 */
export function runPipeline(name: string, args: ExprFn[], c: RunCtx): Value {
  const p = c.prog.pipelines[name];
  const pc = exprCtx(p.free, p.slots, c, c.self, c.holder, null);
  const env = pc.env;
  for (let i = 0; i < args.length; i++) env[i] = args[i](c);
  return pipelineWith(name, p, pc, args.length, c);
}

/** The rest of `runPipeline` once its `args` arguments are in the base's context `pc` (as generated code puts them). */
export function pipelineWith(name: string, p: PipelineCode, pc: RunCtx, args: number, c: RunCtx): Value {
  const env = pc.env;
  step();
  let v = p.base(pc);
  // A pipeline no card modifies asks for no holders.
  const calls = p.modifiers.length === 0 ? NO_CALLS : modifierCalls(c.prog, c.st, name, c.me);
  if (calls.length) {
    const mc = exprCtx(p.modifierFree, p.modifierSlots, c, null, null, null);
    const menv = mc.env;
    for (let k = 0; k < calls.length; k++) {
      const call = calls[k];
      const m = p.modifiers[call[0]];
      if (k > 0) emptied(menv);
      for (let a = 0; a < args; a++) menv[a] = env[a];
      mc.self = m.card === undefined ? null : m.card.card;
      mc.holder = call[1];
      mc.it = null;
      mc.value = v;
      if (m.when && m.when(mc) !== true) continue;
      v = m.value(mc);
    }
    p.modifierFree.push(mc);
  }
  if (p.min) v = Math.max(v as number, p.min(pc) as number);
  if (p.max) v = Math.min(v as number, p.max(pc) as number);
  p.free.push(pc);
  return v;
}
