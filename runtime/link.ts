import { BUILTINS, checkSum, positionIn } from './builtins.ts';
import { cloneJson, recordsByNumber, sameValue, writableFound, writableRecord } from './clone.ts';
import type { ActionDef, Block, CardBinding, Check, CompiledPack, Expr, ListRef, RecordRef, Stmt } from './compiled.ts';
import { checkCount, checkList, checkNumber, checkText, placed, rangeOf, refuse, spend, spendMany, step } from './budget.ts';
import { emptied, exprCtx, frameOf, innerCtx, locals, pipelineWith, pushFrame, runBlock, runEmit, runFor, runPipeline, runRepeat, watch } from './engine.ts';
import { whereCodeAllowed } from './codegen/codeAllowed.ts';
import { generatesWhole, Unit } from './codegen/emit.ts';
import { flowStatement, generatesBlock, generatesFlow, pickedBlock, wholeBlock, type FlowHooks } from './codegen/emitFlow.ts';
import { instantiate, unitSource } from './codegen/instantiate.ts';
import { entityNumbers } from './entityNumbers.ts';
import { firstMatchOf } from './firstMatch.ts';
import { maskable } from './sharedChecks.ts';
import { keptKinds, planCalls, roleWritten, type Stale } from './holders.ts';
import { logKept, logLine, pluralize, surelyFits } from './log.ts';
import { BREAK, FINISH, NORMAL, type ActionCode, type Binding, type BlockCode, type ExprFn, type FnCode, type Program, type RunCtx, type StmtFn } from './program.ts';
import { askToChoose, offerActions } from './prompts.ts';
import { Refusal } from './refusal.ts';
import { table, type Table } from './table.ts';
import { startTurn } from './turns.ts';
import type { Value } from './types.ts';
import { display, shuffleInPlace } from './values.ts';

/**
 * The record whose field a statement is about to write (`stale`: the holders such a write makes
 * stale, by kind). Every statement computes its values before it takes the record, so holders found
 * stale here cannot be asked for again before the write.
 */
function writableFor(c: RunCtx, id: Value, what: string, stale: ReadonlyMap<string, Stale> | undefined, field: string): Record<string, Value> {
  const rec = typeof id === 'string' ? writableRecord(c.st, id, field) : undefined;
  if (!rec) refuse(`${what} is none here, so it has no fields to change`);
  if (stale) {
    const s = stale.get(c.prog.pack.kindOf(id as string)!);
    if (s) roleWritten(c.st, s, rec);
  }
  return rec;
}

/**
 * `writableFor` of `found`, `id`'s record as the generated code found it among the records by number
 * (`recordsByNumber`: an entity the rules name), undefined where the entity has none. Its own copy
 * of the lines above, not a function both call: a level of calls more cost V8's inlining in the
 * generated bodies more than it saved (callgrind: 0.35% and 0.6% of the bench's two playouts).
 */
function writableAt(c: RunCtx, found: Record<string, Value> | undefined, id: Value, what: string, stale: ReadonlyMap<string, Stale> | undefined, field: string): Record<string, Value> {
  const rec = found !== undefined ? writableFound(c.st, id as string, found, field) : undefined;
  if (!rec) refuse(`${what} is none here, so it has no fields to change`);
  if (stale) {
    const s = stale.get(c.prog.pack.kindOf(id as string)!);
    if (s) roleWritten(c.st, s, rec);
  }
  return rec;
}

/** Lists are copied into a variable or a field: piles are shuffled and drawn in place, and must not alias each other or the pack. */
function copied(xs: Value[]): Value[] {
  spend(xs.length);
  return cloneJson(xs);
}

function concat(a: Value[], b: Value[]): Value[] {
  spend(a.length + b.length);
  return checkList([...a, ...b]);
}

function without(a: Value[], drop: Value[]): Value[] {
  spend(a.length + drop.length);
  return a.filter((x) => !drop.some((y) => sameValue(x, y)));
}

/** `x in xs`: every element looked at counts a step. */
function inList(x: Value, list: Value[] | null): boolean {
  const xs = list ?? [];
  spend(xs.length);
  for (let i = 0; i < xs.length; i++) if (sameValue(x, xs[i])) return true;
  return false;
}

/**
 * How a pack's rules run: as JavaScript generated from them (`codegen/`), or by the closures of the
 * interpreter, which stays the reference the generated code is tested against, byte for byte.
 */
export type EngineName = 'generated' | 'interpreter';

/**
 * The engine of a game that names none: `RULEBOOK_ENGINE=interpreter` or `=generated` picks one for
 * every game (tests, bench); unset, a pack starts on the interpreter and turns to its generated code
 * once it has been played a while (`warmed`).
 */
const fromEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.RULEBOOK_ENGINE;
let defaultEngine: EngineName | undefined = fromEnv === 'interpreter' || fromEnv === 'generated' ? fromEnv : undefined;

/** Runs `run` with every game that names no engine played by `engine`: checks written for the default, run under both. */
export function withEngine<T>(engine: EngineName, run: () => T): T {
  const outer = defaultEngine;
  defaultEngine = engine;
  try {
    return run();
  } finally {
    defaultEngine = outer;
  }
}

/**
 * Choices listed and applied by the interpreter before a game that names no engine is given the
 * engine it goes on with. Generating a pack costs what a few hundred of its choices cost: an edited
 * pack in the playground, replayed once, never pays it; a simulation pays it in its first games.
 */
const WARM_CALLS = 2000;

/**
 * The steps (`budget.ts`) a listing or a choice of the pack must take on average while it warms for
 * its generated code to pay. Both engines share the work of a choice outside the rules (listing,
 * copying the state, ids, the log), and the generated code speeds up only the rules: at two or three
 * steps a call there is next to nothing for it to speed up, and it would cost its making and a second
 * set of handlers in the process; from a dozen it gains (`npm run bench`, random playouts: 1.2× at 12
 * steps a call with every choice logged, 1.3× driven). A pack of many cards takes over a
 * thousand (docs/architecture.md gives the shipped and bench packs' counts). A count of steps, not a
 * time, so the same calls always pick the same engine, whatever the load.
 */
const STEPS_WORTH_GENERATING = 10;

/**
 * A part of the rules (an expression, a statement, an action's checks) is generated when it ran at
 * least once every this many choices listed or applied while its pack warmed (`WARM_CALLS`); the
 * rest stays the interpreter's closures. Each generated function is code of its own for V8 to
 * optimise once it is hot, in each thread, and a part run a few times a game got hot only after
 * hundreds of games, one by one, each compiled on a helper thread that a second thread playing
 * then lacked. The interpreter's closures are shared by every part, and optimised in the first
 * games. Measured on the default pack (docs/architecture.md), 2 players, one
 * thread, games 200–1000: with all its 1,275 functions generated, V8's helper threads took 11% of
 * the player's CPU (183 functions optimised meanwhile); with the 201 of the parts run often, 4%,
 * and the player no more time (bench/threadCpu.ts; 4 players: 7% → 1.5%).
 */
const CALLS_PER_RUN = 20;

const programs: Record<EngineName | 'warming', WeakMap<CompiledPack, Program>> = { generated: new WeakMap(), interpreter: new WeakMap(), warming: new WeakMap() };

/** The pack's rules as handlers, linked once per pack and engine. */
export function programOf(pack: CompiledPack, engine: EngineName | undefined = defaultEngine): Program {
  const kind = engine ?? 'warming';
  let prog = programs[kind].get(pack);
  if (!prog) {
    if (kind === 'generated') prog = generatedProgram(pack);
    else if (kind === 'interpreter') prog = link(pack);
    else prog = warmingProgram(pack);
    programs[kind].set(pack, prog);
  }
  return prog;
}

/**
 * How many times each part of a warming program's rules ran (`CALLS_PER_RUN`), by the part's
 * lowered operation (an `Expr`, a `Stmt`, an `ActionDef` for its checks): kept until the pack turns.
 */
type Runs = Map<object, { n: number }>;
const runsWhileWarming = new WeakMap<Program, Runs>();

/**
 * The interpreter's handlers, counting their uses and steps, and each part's runs (`Runs`): they
 * take no program but the one a context names. The program `link` made for it alone, its `warming`
 * field (made undefined there, so every program has one shape) set: a spread copy had another
 * shape, and the rules' reads of a context's program, seeing two, ran a quarter slower on small
 * games even once the game had left the warming program.
 */
function warmingProgram(pack: CompiledPack): Program {
  const runs: Runs = new Map();
  const warming = link(pack, undefined, undefined, runs);
  warming.warming = { calls: 0, steps: 0, next: undefined };
  runsWhileWarming.set(warming, runs);
  return warming;
}

/**
 * The program a state goes on with: once a warming program has been used enough, its generated
 * code where its rules do enough per call (`STEPS_WORTH_GENERATING`), else the interpreter.
 */
export function warmed(prog: Program): Program {
  const w = prog.warming;
  if (w === undefined) return prog;
  if (w.next === undefined) {
    if (++w.calls < WARM_CALLS) return prog;
    const runs = runsWhileWarming.get(prog)!;
    const often = w.calls / CALLS_PER_RUN;
    if (w.steps < STEPS_WORTH_GENERATING * w.calls) w.next = programOf(prog.pack, 'interpreter');
    else {
      // A page whose content security policy forbids making code keeps the interpreter.
      w.next = whereCodeAllowed(() => generatedProgram(prog.pack, (part) => (runs.get(part)?.n ?? 0) >= often)) ?? programOf(prog.pack, 'interpreter');
    }
    runsWhileWarming.delete(prog);
  }
  return w.next;
}

/** The functions a linker takes for expressions, statements and actions' checks instead of making closures (`generatedProgram`); undefined for one left to the interpreter. */
interface Generated {
  expr(e: Expr): ExprFn | undefined;
  stmt(s: Stmt): StmtFn | undefined;
  /** A block given whole (`BlockCode.whole`). */
  block(b: Block): StmtFn | undefined;
  /** An action's body as a driven choice of it runs it (`ActionCode.drivenBody`), where it differs from the body given whole. */
  drivenBody(a: ActionDef): StmtFn | undefined;
  checks(a: ActionDef, needs: number[], silent: { reason: string }): Checks | undefined;
}

type Checks = Pick<ActionCode, 'pre' | 'holdsWith' | 'candidates'>;

/** What the generated code calls: the interpreter's own helpers, so both count budgets and copy lists in one place. */
function helpersFor(pack: CompiledPack) {
  const numbers = entityNumbers(pack);
  return {
    records: (st: { e: Record<string, Record<string, Value>> }) => recordsByNumber(st, numbers),
    spend: step,
    spendMany,
    placed,
    watch,
    copied,
    concat,
    without,
    same: sameValue,
    record: writableFor,
    recordAt: writableAt,
    Refusal,
    logLine,
    logKept,
    surelyFits,
    display,
    pluralize,
    checkText,
    rangeOf,
    exprCtx,
    pipelineWith,
    inList,
    position: positionIn,
    checkSum,
    badNumber: (n: number, a: Value, op: string, b: Value) => checkNumber(n, () => `${a} ${op} ${b}`),
    badWrite: (n: number, field: string, op: string, x: Value) => checkNumber(n, () => `${field} ${op} ${x}`),
    builtin: (e: Extract<Expr, { op: 'builtin' }>, args: ExprFn[]) => BUILTINS.get(e.name)!(args, { pack, die: e.die, rule: e.rule }),
    checkCount,
    offerActions,
    startTurn,
    innerCtx,
    frameOf,
    pushFrame,
  };
}

/**
 * The pack linked with its expressions and simple statements generated as JavaScript (`codegen/`):
 * linked once to find every expression and statement the program holds, which are generated as
 * one unit, then linked again taking the generated functions for them.
 */
const generatedCode = new WeakMap<Program, { source: string; functions: number }>();

/** The JavaScript the generated engine runs for `pack` (what a test reads to see that no text of the pack is in it). */
export function generatedSource(pack: CompiledPack): string {
  return generatedCode.get(programOf(pack, 'generated'))!.source;
}

/** How many functions a program's generated code holds (a warmed program's: those of the parts that ran often); undefined for the interpreter's. */
export function generatedFunctions(prog: Program): number | undefined {
  return generatedCode.get(prog)?.functions;
}

/** The program of the generated engine, of the parts `generates` says (every part, by default); the interpreter's closures for the others. */
function generatedProgram(pack: CompiledPack, generates: (part: Expr | Stmt | ActionDef) => boolean = () => true): Program {
  let columns: (field: string) => unknown = () => undefined;
  const roleFields = keptKinds(pack).roleFields;
  const unit = new Unit({ column: (field) => columns(field), stale: (field) => roleFields.get(field), fn: (name) => pack.rules.fns[name], number: (id) => entityNumbers(pack).of.get(id) });
  const exprs = new Map<Expr, number>();
  const stmts = new Map<Stmt, number>();
  const wholeBlocks = new Map<Block, number>();
  const pickedBlocks = new Map<ActionDef, number>();
  const checks = new Map<ActionDef, { pre: number; holdsWith: number; candidates: number | undefined }>();
  const unused = () => {
    throw new Error('internal: a rule ran while its program was being generated');
  };
  const flow: FlowHooks = {
    expr(e) {
      let i = exprs.get(e);
      if (i === undefined) exprs.set(e, (i = unit.expression(e)));
      return i;
    },
    stmt(s) {
      let i = stmts.get(s);
      if (i === undefined) stmts.set(s, (i = unit.statement(s)));
      return i;
    },
    flow(s) {
      let i = stmts.get(s);
      if (i === undefined) stmts.set(s, (i = flowStatement(unit, flow, s)));
      return i;
    },
  };
  link(pack, {
    expr(e) {
      if (!generates(e)) return undefined;
      if (!exprs.has(e)) exprs.set(e, unit.expression(e));
      return unused;
    },
    stmt(s) {
      if (!generates(s)) return undefined;
      if (generatesWhole(s)) flow.stmt(s);
      else if (!generatesFlow(s)) return undefined;
      else flow.flow(s);
      return unused;
    },
    // A block is given whole where each of its statements is generated: those a warming program
    // saw run often, and the `break`s and `finish`es, which it does not count.
    block(b) {
      if (!generatesBlock(b) || !b.stmts.every((s) => s.op === 'break' || s.op === 'finish' || generates(s))) return undefined;
      if (!wholeBlocks.has(b)) wholeBlocks.set(b, wholeBlock(unit, flow, b));
      return unused;
    },
    // Only where the body is given whole (its block, linked just before, was) and its checks are generated.
    drivenBody(a) {
      if (!wholeBlocks.has(a.body) || !generates(a)) return undefined;
      if (!pickedBlocks.has(a)) {
        const i = pickedBlock(unit, flow, a);
        if (i === undefined) return undefined;
        pickedBlocks.set(a, i);
      }
      return unused;
    },
    checks(a, needs, silent) {
      if (!generates(a)) return undefined;
      if (!checks.has(a)) {
        const candidates = a.params.length === 1 ? unit.candidates(a.checks, needs, a.slots, a.params[0].domain) : undefined;
        checks.set(a, { pre: unit.pre(a.checks, silent), holdsWith: unit.holdsWith(a.checks, needs), candidates });
      }
      return { pre: unused, holdsWith: unused, candidates: unused };
    },
  }, (l) => (columns = l.propColumn));
  const source = unitSource(unit);
  const fns = instantiate<ExprFn & StmtFn & ActionCode['pre'] & ActionCode['holdsWith'] & ActionCode['candidates']>(unit, source, helpersFor(pack));
  const prog = link(pack, {
    expr: (e) => {
      const i = exprs.get(e);
      return i === undefined ? undefined : fns[i];
    },
    stmt: (s) => {
      const i = stmts.get(s);
      return i === undefined ? undefined : fns[i];
    },
    block: (b) => {
      const i = wholeBlocks.get(b);
      return i === undefined ? undefined : fns[i];
    },
    drivenBody: (a) => {
      const i = pickedBlocks.get(a);
      return i === undefined ? undefined : fns[i];
    },
    checks: (a) => {
      const k = checks.get(a);
      if (k === undefined) return undefined;
      return { pre: fns[k.pre], holdsWith: fns[k.holdsWith], candidates: k.candidates === undefined ? noCandidates : fns[k.candidates] };
    },
  });
  generatedCode.set(prog, { source, functions: fns.length });
  return prog;
}

/**
 * Turns the compiler's operations into closures, over the pack's data. Every expression is linked by `expr` and every
 * statement by `stmt`: the one place where a cost per evaluation could be counted. With `generated`, the expressions
 * and statements it gives are taken instead (the closures below are then the interpreter for what it does not give).
 */
function linker(pack: CompiledPack, roleFields: ReadonlyMap<string, ReadonlyMap<string, Stale>> = new Map(), generated?: Generated, runs?: Runs) {
  const blocks: BlockCode[] = [];
  const expr = (e: Expr): ExprFn => generated?.expr(e) ?? counted(runs, e, interp(e));

  const block = (b: Block): BlockCode => {
    const code: BlockCode = { id: b.id, stmts: [], lines: b.lines, whole: undefined };
    blocks[b.id] = code;
    code.stmts = b.stmts.map(stmt);
    code.whole = generated?.block(b);
    return code;
  };

  const record = (ref: RecordRef, field: string): ((c: RunCtx) => Record<string, Value>) => {
    const obj = expr(ref.target);
    const what = ref.what;
    const stale = roleFields.get(field);
    return (c) => writableFor(c, obj(c), what, stale, field);
  };

  /**
   * A property's values by entity id, those that are not none: one lookup where the pack's tables
   * take two (its tables, keyed by the pack's names, are hash tables).
   */
  const columns = new Map<string, Map<string, Value>>();
  const propColumn = (field: string): Map<string, Value> => {
    let byId = columns.get(field);
    if (!byId) {
      byId = new Map();
      for (const id of Object.keys(pack.entities)) {
        const v = pack.entities[id].props[field];
        if (v !== undefined && v !== null) byId.set(id, v);
      }
      columns.set(field, byId);
    }
    return byId;
  };

  const listRef = (ref: ListRef): ((c: RunCtx) => Value[]) => {
    const rec = record(ref.record, ref.field);
    const field = ref.field;
    return (c) => {
      const x = rec(c);
      return (x[field] ??= []) as Value[];
    };
  };

  function stmt(s: Stmt): StmtFn {
    const g = generated?.stmt(s);
    if (g) {
      // A flow statement given whole has its blocks linked all the same: a game suspended inside
      // it keeps frames naming them, which `resume` runs on the interpreter's blocks.
      if (generatesFlow(s)) interpreted(s);
      return g;
    }
    return generatesWhole(s) || generatesFlow(s) ? counted(runs, s, interpreted(s)) : interpreted(s);
  }

  function interpreted(s: Stmt): StmtFn {
    switch (s.op) {
      case 'let': {
        const slot = s.slot;
        const v = expr(s.value);
        return (c) => {
          const x = v(c);
          c.env[slot] = Array.isArray(x) ? copied(x) : x;
          return NORMAL;
        };
      }
      case '=': {
        const rec = record(s.record, s.field);
        const field = s.field;
        const v = expr(s.value);
        return (c) => {
          const x = v(c);
          rec(c)[field] = Array.isArray(x) ? copied(x) : x;
          return NORMAL;
        };
      }
      case '+=':
      case '-=': {
        const rec = record(s.record, s.field);
        const field = s.field;
        const v = expr(s.value);
        const add = s.op === '+=';
        return (c) => {
          const x = v(c);
          const x0 = rec(c);
          const old = x0[field];
          if (Array.isArray(old)) x0[field] = add ? concat(old, x as Value[]) : without(old, x as Value[]);
          else x0[field] = checkNumber(add ? (old as number) + (x as number) : (old as number) - (x as number), () => `${field} ${s.op[0]} ${x}`);
          return NORMAL;
        };
      }
      case 'if': {
        const cond = expr(s.cond);
        const then = block(s.then);
        const otherwise = s.else && block(s.else);
        return (c) => (cond(c) === true ? runBlock(then, 0, c) : otherwise ? runBlock(otherwise, 0, c) : NORMAL);
      }
      case 'for': {
        const slot = s.slot;
        const src = expr(s.source);
        const body = block(s.body);
        return (c) => runFor(body, ((src(c) as Value[]) ?? []).slice(), 0, slot, c);
      }
      case 'repeat': {
        const n = expr(s.times);
        const body = block(s.body);
        return (c) => runRepeat(body, 0, checkCount(n(c) as number, 0, 'the number of rounds'), c);
      }
      case 'break':
        return () => BREAK;
      case 'finish':
        return () => FINISH;
      case 'require': {
        const cond = expr(s.cond);
        const reason = expr(s.reason);
        const rule = s.rule;
        return (c) => {
          if (cond(c) !== true) throw new Refusal(reason(c) as string, rule);
          return NORMAL;
        };
      }
      case 'choose': {
        const src = expr(s.source);
        const by = s.by && expr(s.by);
        const prompt = s.prompt && expr(s.prompt);
        const body = block(s.body);
        const { slot, optional, rule } = s;
        return (c) => {
          const options = ((src(c) as Value[]) ?? []).slice();
          if (!options.length && !optional) return NORMAL;
          const player = (by ? by(c) : c.me ?? c.st.current) as string;
          return askToChoose(c, { player, options, optional, text: prompt ? (prompt(c) as string) : undefined, rule, slot, body });
        };
      }
      case 'offer': {
        const player = expr(s.player);
        const actions = s.actions;
        return (c) => offerActions(c, player(c) as string, actions);
      }
      case 'emit': {
        const args = s.args.map(expr);
        const event = s.event;
        return (c) => runEmit(event, args.map((a) => a(c)), c);
      }
      case 'log': {
        const rule = s.rule;
        if (s.text.op === 'text') {
          const parts = s.text.parts.map((p) => (typeof p === 'string' ? p : expr(p)));
          const shown: string[] = [];
          return (c) => {
            // Each part shown as it is evaluated, as the text would be made (`surelyFits`).
            let length = 0;
            for (let i = 0; i < parts.length; i++) {
              const p = parts[i];
              shown[i] = typeof p === 'string' ? p : display(c.prog.pack, p(c));
              length += shown[i].length;
            }
            if (logKept() || !surelyFits(c.prog.pack, length)) logLine(c.st, c.step, checkText(pluralize(c.prog.pack, shown.join(''))), rule, c.me ?? undefined);
            return NORMAL;
          };
        }
        const text = expr(s.text);
        return (c) => {
          logLine(c.st, c.step, text(c) as string, rule, c.me ?? undefined);
          return NORMAL;
        };
      }
      case 'resolving': {
        const body = block(s.body);
        return (c) => runBlock(body, 0, innerCtx(c, c.env, c.me, c.self, c.holder, c.it, c.value, true));
      }
      case 'turn': {
        const player = expr(s.player);
        const body = block(s.body);
        const rule = s.rule;
        return (c) => {
          const p = player(c) as string;
          startTurn(c, p, rule);
          return runBlock(body, 0, innerCtx(c, c.env, p, c.self, c.holder, c.it, c.value, c.resolving));
        };
      }
      case 'shuffle': {
        const list = listRef(s.list);
        return (c) => {
          shuffleInPlace(c.st, list(c));
          return NORMAL;
        };
      }
      case 'draw': {
        const list = listRef(s.list);
        const { slot, fromTop } = s;
        const what = s.list.what;
        return (c) => {
          const xs = list(c);
          if (!xs.length) refuse(`cannot draw from ${what}: it is empty`);
          c.env[slot] = (fromTop ? xs.shift() : xs.pop()) as Value;
          return NORMAL;
        };
      }
      case 'put': {
        const list = listRef(s.list);
        const v = expr(s.value);
        const onTop = s.onTop;
        return (c) => {
          const x = v(c);
          const xs = list(c);
          if (onTop) xs.unshift(x);
          else xs.push(x);
          checkList(xs);
          return NORMAL;
        };
      }
      case 'remove': {
        const list = listRef(s.list);
        const v = expr(s.value);
        return (c) => {
          const x = v(c);
          const xs = list(c);
          const i = xs.findIndex((y) => sameValue(x, y));
          if (i >= 0) xs.splice(i, 1);
          return NORMAL;
        };
      }
      case 'call': {
        const name = s.name;
        const args = s.args.map(expr);
        return (c) => {
          const proc = c.prog.procs[name];
          const env: Value[] = locals(proc.slots);
          for (let i = 0; i < args.length; i++) env[i] = args[i](c);
          return runBlock(proc.body, 0, innerCtx(c, env, c.me, c.self, c.holder, null, null, c.resolving));
        };
      }
    }
  }

  function interp(e: Expr): ExprFn {
    switch (e.op) {
      case 'const': {
        const v = e.value;
        return () => v;
      }
      case 'text': {
        const parts = e.parts.map((p) => (typeof p === 'string' ? p : interp(p)));
        return (c) => {
          let out = '';
          for (const p of parts) out += typeof p === 'string' ? p : display(c.prog.pack, p(c));
          return checkText(pluralize(c.prog.pack, out));
        };
      }
      case 'local': {
        const slot = e.slot;
        return (c) => c.env[slot];
      }
      case 'me':
        return (c) => c.me;
      case 'self':
        return (c) => c.self;
      case 'holder':
        return (c) => c.holder;
      case 'it':
        return (c) => c.it;
      case 'value':
        return (c) => c.value;
      case 'players':
        return (c) => c.st.players;
      case 'current':
        return (c) => c.st.current;
      case 'prop': {
        const target = interp(e.target);
        const empty = e.empty;
        const byId = propColumn(e.field);
        return (c) => {
          const id = target(c);
          return typeof id === 'string' ? byId.get(id) ?? empty : empty;
        };
      }
      case 'field': {
        const target = interp(e.target);
        const { field, empty } = e;
        return (c) => {
          const id = target(c);
          if (typeof id !== 'string') return empty;
          const rec = c.st.e[id];
          return rec ? rec[field] ?? empty : empty;
        };
      }
      case 'not': {
        const x = interp(e.operand);
        return (c) => x(c) !== true;
      }
      case 'negate': {
        const x = interp(e.operand);
        return (c) => -(x(c) as number);
      }
      case 'if': {
        const cond = interp(e.cond);
        const a = interp(e.then);
        const b = interp(e.else);
        return (c) => (cond(c) === true ? a(c) : b(c));
      }
      case 'where': {
        const src = interp(e.source);
        const cond = interp(e.cond);
        const slot = e.slot;
        return (c) => {
          const xs = (src(c) as Value[]) ?? [];
          const saved = c.it;
          const out: Value[] = [];
          for (const x of xs) {
            spend();
            c.it = x;
            if (slot >= 0) c.env[slot] = x;
            if (cond(c) === true) out.push(x);
          }
          c.it = saved;
          return out;
        };
      }
      case 'list': {
        const items = e.items.map(expr);
        return (c) => items.map((i) => i(c));
      }
      case 'range': {
        const from = interp(e.from);
        const to = interp(e.to);
        return (c) => rangeOf(from(c) as number, to(c) as number);
      }
      case 'fn': {
        const name = e.name;
        const args = e.args.map(expr);
        // Found on the first call: functions are linked after the expressions that call them.
        let fn: FnCode | undefined;
        return (c) => {
          spend();
          fn ??= c.prog.fns[name];
          const fc = exprCtx(fn.free, fn.slots, c, c.self, c.holder, null);
          for (let i = 0; i < args.length; i++) fc.env[i] = args[i](c);
          const v = fn.body(fc);
          fn.free.push(fc);
          return v;
        };
      }
      case 'pipeline': {
        const name = e.name;
        const args = e.args.map(expr);
        return (c) => runPipeline(name, args, c);
      }
      case 'builtin': {
        const w = firstMatchOf(e);
        if (w) {
          const src = interp(w.source);
          const cond = interp(w.cond);
          return (c) => {
            const xs = (src(c) as Value[]) ?? [];
            const saved = c.it;
            let found: Value = null;
            for (const x of xs) {
              spend();
              c.it = x;
              if (cond(c) === true) {
                found = x;
                break;
              }
            }
            c.it = saved;
            return found;
          };
        }
        const impl = BUILTINS.get(e.name);
        if (!impl) throw new Error(`internal: built-in ${e.name} has no implementation`);
        return impl(e.args.map(expr), { pack, die: e.die, rule: e.rule });
      }
      default:
        return binary(e);
    }
  }

  function binary(e: Extract<Expr, { left: Expr }>): ExprFn {
    const l = interp(e.left);
    const r = interp(e.right);
    switch (e.op) {
      case 'and':
        return (c) => l(c) === true && r(c) === true;
      case 'or':
        return (c) => l(c) === true || r(c) === true;
      case '==':
        return (c) => sameValue(l(c), r(c));
      case '!=':
        return (c) => !sameValue(l(c), r(c));
      case 'in':
        return (c) => inList(l(c), r(c) as Value[] | null);
      case '<':
        return (c) => (l(c) as number) < (r(c) as number);
      case '<=':
        return (c) => (l(c) as number) <= (r(c) as number);
      case '>':
        return (c) => (l(c) as number) > (r(c) as number);
      case '>=':
        return (c) => (l(c) as number) >= (r(c) as number);
      case '*':
        return (c) => {
          const a = l(c) as number;
          const b = r(c) as number;
          return checkNumber(a * b, () => `${a} * ${b}`);
        };
      case '/':
        return (c) => {
          const a = l(c) as number;
          const b = (r(c) as number) || 1;
          return checkNumber(Math.floor(a / b), () => `${a} / ${b}`);
        };
      case '%':
        return (c) => (l(c) as number) % ((r(c) as number) || 1);
      case '+':
        return (c) => {
          const a = l(c) as number;
          const b = r(c) as number;
          return checkNumber(a + b, () => `${a} + ${b}`);
        };
      case '-':
        return (c) => {
          const a = l(c) as number;
          const b = r(c) as number;
          return checkNumber(a - b, () => `${a} - ${b}`);
        };
      case 'concat':
        return (c) => concat((l(c) as Value[]) ?? [], (r(c) as Value[]) ?? []);
      case 'join':
        return (c) => checkText(String(l(c)) + String(r(c)));
      case 'without':
        return (c) => without((l(c) as Value[]) ?? [], (r(c) as Value[]) ?? []);
    }
  }

  return { expr, block, blocks, propColumn };
}

/** `f`, counting its runs as a run of `part` in `runs` if given: each part the generated engine could take, as it would take it. */
function counted<F extends ExprFn | StmtFn>(runs: Runs | undefined, part: object, f: F): F {
  if (!runs) return f;
  const n = runOf(runs, part);
  return ((c: RunCtx) => {
    n.n++;
    return f(c);
  }) as F;
}

function runOf(runs: Runs, part: object): { n: number } {
  let n = runs.get(part);
  if (!n) runs.set(part, (n = { n: 0 }));
  return n;
}

/** An action's checks counting their runs as runs of `a` (`counted`). */
function countedChecks(runs: Runs | undefined, a: ActionDef, k: Checks): Checks {
  if (!runs) return k;
  const n = runOf(runs, a);
  const { pre, holdsWith, candidates } = k;
  return {
    pre: (c, explain) => {
      n.n++;
      return pre(c, explain);
    },
    holdsWith: (c, bound, from, set) => {
      n.n++;
      return holdsWith(c, bound, from, set);
    },
    candidates: (c, domain, out) => {
      n.n++;
      candidates(c, domain, out);
    },
  };
}

/** An action of another number of parameters than one has no `candidates`: its choices are listed by their prefixes. */
function noCandidates(): never {
  throw new Error('internal: only an action of one parameter lists its candidates by `candidates`');
}

function link(pack: CompiledPack, generated?: Generated, seen?: (l: ReturnType<typeof linker>) => void, runs?: Runs): Program {
  const r = pack.rules;
  const { kindGroup, roleFields } = keptKinds(pack);
  const l = linker(pack, roleFields, generated, runs);
  seen?.(l);
  const { expr, block, blocks } = l;
  const groupOf = (card: string) => kindGroup.get(pack.kindOf(card)!);
  const interpretedChecks = (defs: Check[], needs: number[], silent: { reason: string }, params: number): Checks => {
    const checks = defs.map((k): { slot: number; value: ExprFn } | { cond: ExprFn; reason: ExprFn; rule?: string } => ('slot' in k ? { slot: k.slot, value: expr(k.value) } : { cond: expr(k.cond), reason: expr(k.reason), rule: k.rule }));
    return {
      // The leading requires stop before anything random, and run without exceptions: listing
      // legal choices tries every candidate, and most fail.
      pre: (c, explain = true) => {
        for (const check of checks) {
          if ('slot' in check) c.env[check.slot] = check.value(c);
          else if (check.cond(c) !== true) return explain ? { reason: check.reason(c) as string, rule: check.rule } : silent;
        }
        return null;
      },
      holdsWith: (c, bound, from, set) => {
        for (let i = 0; i < checks.length && needs[i] <= bound; i++) {
          const check = checks[i];
          if ('slot' in check) {
            if (!maskable(i) || (set & (1 << i)) === 0) c.env[check.slot] = check.value(c);
          } else if (i >= from && check.cond(c) !== true) return i;
        }
        return -1;
      },
      candidates:
        params !== 1
          ? noCandidates
          : (c, domain, out) => {
              const env = c.env;
              for (let j = 0; j < domain.length; j++) {
                emptied(env)[0] = domain[j];
                c.it = null;
                c.value = null;
                let held = true;
                for (let i = 0; i < checks.length && needs[i] <= 1; i++) {
                  const check = checks[i];
                  if ('slot' in check) env[check.slot] = check.value(c);
                  else if (check.cond(c) !== true) {
                    held = false;
                    break;
                  }
                }
                if (held) out.push(domain[j]);
              }
            },
    };
  };
  const bindings = new Map<CardBinding, Binding>();
  const binding = (card?: CardBinding): Binding | undefined => {
    if (!card) return undefined;
    let b = bindings.get(card);
    if (!b) {
      b = { card: card.card, roles: card.roles, key: `${card.card}/${card.roles.join(',')}` };
      bindings.set(card, b);
    }
    return b;
  };

  const fns = table(Object.entries(r.fns).map(([name, f]) => [name, { slots: f.slots, free: [] as RunCtx[], body: expr(f.body) }] as const));
  const pipelines = table(
    Object.entries(r.pipelines).map(
      ([name, p]) =>
        [
          name,
          {
            slots: p.slots,
            params: p.params,
            modifierSlots: Math.max(p.params, ...p.modifiers.map((m) => m.slots)),
            free: [] as RunCtx[],
            modifierFree: [] as RunCtx[],
            base: expr(p.base),
            min: p.min && expr(p.min),
            max: p.max && expr(p.max),
            modifiers: p.modifiers.map((m) => ({ card: binding(m.card), anyone: m.anyone, slots: m.slots, when: m.when && expr(m.when), value: expr(m.value), origin: m.origin })),
          },
        ] as const,
    ),
  );
  const procs = table(Object.entries(r.procs).map(([name, p]) => [name, { slots: p.slots, body: block(p.body) }] as const));
  const actions: Table<ActionCode[]> = table();
  const companions: Table<ActionCode[]> = table();
  const anytime: ActionCode[] = [];
  for (const [name, list] of Object.entries(r.actions)) {
    actions[name] = list.map((a): ActionCode => {
      const body = block(a.body);
      const picked = generated?.drivenBody(a);
      const silent = { reason: '' };
      const needs = paramsNeeded(a.checks, a.params.length);
      return {
        name: a.name,
        card: binding(a.card),
        with: a.with,
        anytime: a.anytime,
        params: a.params.map((p) => ({ name: p.name, type: p.type, domain: expr(p.domain) })),
        slots: a.slots,
        label: a.label && expr(a.label),
        limit: a.limit,
        ...(generated?.checks(a, needs, silent) ?? countedChecks(runs, a, interpretedChecks(a.checks, needs, silent, a.params.length))),
        lowered: { checks: a.checks, domain: a.params.length === 1 ? a.params[0].domain : undefined },
        ids: new Map(),
        body,
        // Not in `blocks`: a frame names the body's block, whose statements are the same.
        drivenBody: picked === undefined ? body : { ...body, whole: picked },
        origin: a.origin,
      };
    });
    for (const a of actions[name]) if (a.with) (companions[a.with] ??= []).push(a);
    for (const a of actions[name]) if (a.anytime) anytime.push(a);
  }
  const triggers = table(
    Object.entries(r.triggers).map(
      ([event, list]) => [event, list.map((t) => ({ card: binding(t.card), slots: t.slots, when: t.when && expr(t.when), body: block(t.body), origin: t.origin }))] as const,
    ),
  );
  const roles = table(
    Object.entries(r.roles).map(
      ([kind, byRole]) =>
        [
          kind,
          table(
            Object.entries(byRole).map(([role, def]) => {
              const fn = expr(def.expr);
              const players = def.single
                ? (c: RunCtx) => {
                    const p = fn(c);
                    return typeof p === 'string' ? [p] : [];
                  }
                : (c: RunCtx) => fn(c) as string[];
              return [role, players] as const;
            }),
          ),
        ] as const,
    ),
  );
  return {
    pack,
    blocks,
    roles,
    actions,
    companions,
    anytime,
    triggers,
    pipelines,
    kindGroup,
    triggerPlans: table(Object.entries(triggers).map(([event, list]) => [event, planCalls(list, groupOf)] as const)),
    modifierPlans: table(Object.entries(pipelines).map(([name, p]) => [name, planCalls(p.modifiers, groupOf)] as const)),
    procs,
    fns,
    setups: r.setups.map((s) => ({ body: block(s.body), slots: s.slots })),
    flow: r.flow && { body: block(r.flow.body), slots: r.flow.slots },
    invariants: r.invariants.map((i) => ({ message: expr(i.message), holds: expr(i.holds), slots: i.slots, rule: i.rule })),
    score: r.score && expr(r.score),
    tiebreak: r.tiebreak && expr(r.tiebreak),
    estimate: r.estimate && expr(r.estimate),
    prefer: r.prefer && table(Object.entries(r.prefer).map(([action, p]) => [action, { value: expr(p.value), slots: p.slots }] as const)),
    warming: undefined,
  };
}

/**
 * For each leading check of an action, how many of its first parameters it reads, through the
 * `let`s before it too: a check that reads only the first k can refuse every choice that starts
 * with the same k values.
 */
export function paramsNeeded(checks: Check[], params: number): number[] {
  const letNeeds = new Map<number, number>();
  const read = (x: unknown): number => {
    if (Array.isArray(x)) return x.reduce((m: number, y) => Math.max(m, read(y)), 0);
    if (x === null || typeof x !== 'object') return 0;
    const e = x as { op?: string; slot?: number };
    if (e.op === 'local' && typeof e.slot === 'number') return e.slot < params ? e.slot + 1 : letNeeds.get(e.slot) ?? 0;
    return Object.values(x).reduce((m: number, y) => Math.max(m, read(y)), 0);
  };
  return checks.map((k) => {
    if ('slot' in k) {
      const n = read(k.value);
      letNeeds.set(k.slot, n);
      return n;
    }
    return read(k.cond);
  });
}

/** An expression compiled on its own (`CompiledPack.expression`), linked against its pack. */
export function linkExpression(pack: CompiledPack, code: Expr): ExprFn {
  return linker(pack).expr(code);
}
