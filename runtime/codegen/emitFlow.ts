import type { ActionDef, Block, Expr, Stmt } from '../compiled.ts';
import { generatesWhole, type Unit } from './emit.ts';

/**
 * The statements that lead a game from prompt to prompt (`for`, `repeat`/`loop max`, `turn`,
 * `offer`, and an `if` around them) given whole as generated code, with their blocks written inside
 * them, where the interpreter runs each round and each statement through `runFor`, `runRepeat`,
 * `runBlock` and a closure. A driven playout (`drivenPlayout.ts`) goes from move to move in them
 * without leaving the function. A block made only of such statements and those `generatesWhole`
 * gives is one function too (`wholeBlock`, `BlockCode.whole`), which `runBlock` runs from the
 * block's start: an action's body, the body of a loop resumed from its frame at its next round.
 * An inner flow statement is written inside the one around it up to a bounded size (`MOST_WRITTEN`);
 * past it, it is called as its own function, so the source grows with the pack, not with the
 * square of how deep its flow nests.
 *
 * They run as the interpreter does, step for step (runtime/engine.ts): a step and the watcher before
 * each statement of a block, a step before each round of a loop, a refusal named by the innermost
 * statement running (`H.placed`, the block's lines), and where a prompt suspends the game each block
 * and loop left on the way out leaves the frame `runBlock`, `runFor` or `runRepeat` would
 * (`H.frameOf`): same block, same place, same loop, same copy of the locals. A suspended game is so
 * the same byte for byte whichever engine made it, and goes on through the interpreter's frames
 * (`resume`), whose blocks are linked as ever.
 *
 * Signals are written as the numbers `program.ts` gives them: NORMAL 0, BREAK 1, SUSPEND 2, FINISH 3.
 * Expressions and the statements `generatesWhole` gives are called as the unit's own functions
 * (`FlowHooks`); every value of the pack (an action's names, a line, a rule) is read from the
 * unit's table, never written into the source.
 */

/** Statements given whole here with their blocks (`generatesFlow`). */
const FLOW_STATEMENTS = new Set<Stmt['op']>(['for', 'repeat', 'turn', 'offer', 'if']);

/**
 * Whether `s` is given whole here: one of `FLOW_STATEMENTS` (an `if` not already given whole by
 * `generatesWhole`) whose blocks hold only such statements, `break`, `finish` and statements
 * `generatesWhole` gives. These are what code runs cheaply: anything else in a block (`choose`,
 * `emit`, `call`, a draw, a shuffle …) keeps the statement on the interpreter, whose closures run
 * those at the price they cost anyway, and whose frames for a `choose` or a trigger's rest are its
 * own. Their inner statements that are given whole are given too, for a game resumed inside them.
 */
export function generatesFlow(s: Stmt): boolean {
  let given = flowing.get(s);
  if (given === undefined) {
    given = FLOW_STATEMENTS.has(s.op) && !generatesWhole(s) && blocksOf(s).every((b) => b.stmts.every(inside));
    flowing.set(s, given);
  }
  return given;
}

/**
 * `generatesFlow`'s answers, by statement: it is asked of each statement as it is linked, and of
 * each statement inside one it asks, so a statement nested n deep was asked of n times, each
 * answer walking all that is inside it (a pack's `if`s nested a hundred deep took seconds to link).
 */
const flowing = new WeakMap<Stmt, boolean>();

function inside(s: Stmt): boolean {
  return s.op === 'break' || s.op === 'finish' || generatesWhole(s) || generatesFlow(s);
}

function blocksOf(s: Stmt): Block[] {
  switch (s.op) {
    case 'if':
      return s.else ? [s.then, s.else] : [s.then];
    case 'for':
    case 'repeat':
    case 'turn':
      return [s.body];
    default:
      return [];
  }
}

/**
 * Whether block `b` is given whole as one function (`wholeBlock`): every statement of it is one
 * `generatesFlow` or `generatesWhole` gives, or a `break` or a `finish`. An empty block is left to
 * `runBlock`, which has nothing to run.
 */
export function generatesBlock(b: Block): boolean {
  return b.stmts.length > 0 && b.stmts.every(inside);
}

/**
 * The most statements one statement's function writes (`written`): an inner flow statement that
 * would take it past this is called as its own function (`flowStatement`), not written inside.
 * Written inside, each statement is written again in the function of each statement and block
 * around it, so a flow nested n deep was source of the order of n squared (a pack's text of a few
 * kilobytes made megabytes of source); called, each is written in the functions of at most this
 * many statements around it and of their blocks, and the source grows as the pack does. A loop of
 * turns and offers with an `if` after them (six statements) stays one function whose rounds call no
 * other.
 */
const MOST_WRITTEN = 8;

/**
 * How many statements the function of flow statement `s` writes: itself and, in its blocks, each
 * statement, those written inside it (`inlined`) with all they write.
 */
function written(s: Stmt): number {
  let n = writtenBy.get(s);
  if (n === undefined) {
    n = 1;
    for (const b of blocksOf(s)) for (const t of b.stmts) n += inlined(t) ? written(t) : 1;
    writtenBy.set(s, n);
  }
  return n;
}

/** `written`'s answers, by statement, for the same reason as `flowing`'s. */
const writtenBy = new WeakMap<Stmt, number>();

/** Whether flow statement `s`, inside a block, is written there whole, not called as its own function. */
function inlined(s: Stmt): boolean {
  return generatesFlow(s) && written(s) <= MOST_WRITTEN;
}

/**
 * The unit's functions a flow statement calls, by number: an expression's, a statement's that
 * `generatesWhole` gives, and an inner flow statement's own (`flowStatement`) where it is not
 * written inside; each made the first time it is asked for.
 */
export interface FlowHooks {
  expr(e: Expr): number;
  stmt(s: Stmt): number;
  flow(s: Stmt): number;
}

/** Adds `s`'s function of `c` (`generatesFlow`), which returns the signal the interpreter's statement would; gives its number. */
export function flowStatement(unit: Unit, hooks: FlowHooks, s: Stmt): number {
  const source = new FlowSource(unit, hooks);
  const sig = source.name('s');
  const code = source.stmt(s, 'c', sig);
  return unit.addSource(`function (c) {const W = H.watch;let ${sig};${code}return ${sig};}`);
}

/**
 * Adds block `b`'s function of `c` (`generatesBlock`), which runs it from its first statement as
 * `runBlock` would, the statements at the places `passed` gives spending their step only
 * (`pickedBlock`); gives its number.
 */
export function wholeBlock(unit: Unit, hooks: FlowHooks, b: Block, passed: ReadonlySet<number> = NONE_PASSED): number {
  const source = new FlowSource(unit, hooks);
  const sig = source.name('s');
  const code = source.block(b, 'c', sig, passed);
  return unit.addSource(`function (c) {const W = H.watch;let ${sig};${code}return ${sig};}`);
}

/**
 * Adds the function of action `a`'s body as a driven choice of it runs it (`ActionCode.drivenBody`):
 * as `wholeBlock`, but with the leading `require`s the listing just checked for the value picked
 * passed over, each still spending its statement's step; gives its number, or undefined where it
 * passes none. A driven choice's value is one the action's `candidates` found to pass every leading
 * check on this very state with these very locals (an action of one parameter reads no other), and
 * nothing runs between but the picker: a `require` run again there holds again. It is passed over
 * only where that is exact: the body's statements up to it are the checks' own, in order (the same
 * `let`s and `require`s, not an applied check's or a reached guard's, whose statements differ), and
 * its condition is `stepless` (no step to count, nothing to refuse or change). The other
 * statements, and the frames a suspension leaves (same block, same places), are `wholeBlock`'s.
 */
export function pickedBlock(unit: Unit, hooks: FlowHooks, a: ActionDef): number | undefined {
  if (a.params.length !== 1 || !generatesBlock(a.body)) return undefined;
  const passed = new Set<number>();
  const stmts = a.body.stmts;
  for (let i = 0; i < stmts.length && i < a.checks.length; i++) {
    const s = stmts[i];
    const k = a.checks[i];
    if (s.op === 'let' && 'slot' in k && s.slot === k.slot && sameTree(s.value, k.value)) continue;
    if (s.op !== 'require' || !('cond' in k) || !sameTree(s.cond, k.cond)) break;
    if (unit.stepless(s.cond)) passed.add(i);
  }
  return passed.size === 0 ? undefined : wholeBlock(unit, hooks, a.body, passed);
}

/**
 * Whether two lowered trees are the same: the same operations over the same values. The body and
 * the checks of an action are lowered apart from one source, so equal trees are one rule; a value
 * that is not plain data (a table of the linker's) is the same only as itself.
 */
function sameTree(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x)) return Array.isArray(y) && x.length === y.length && x.every((v, i) => sameTree(v, y[i]));
  if (Array.isArray(y) || Object.getPrototypeOf(x) !== Object.prototype || Object.getPrototypeOf(y) !== Object.prototype) return false;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((key) => Object.prototype.hasOwnProperty.call(y, key) && sameTree((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key]));
}

/** A slot or a block's number, from the compiler: a whole number, or the source is not made. */
function whole(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`internal: ${n} is not an index`);
  return String(n);
}

/** A block given whole runs every statement (`pickedBlock` passes some over). */
const NONE_PASSED: ReadonlySet<number> = new Set();

class FlowSource {
  private names = 0;

  constructor(
    private readonly unit: Unit,
    private readonly hooks: FlowHooks,
  ) {}

  /** A fresh name of ours for a variable or a label. */
  name(prefix: string): string {
    return `${prefix}${this.names++}`;
  }

  private call(e: Expr, ctx: string): string {
    return `f${whole(this.hooks.expr(e))}(${ctx})`;
  }

  private value(v: string | undefined): string {
    return v === undefined ? 'undefined' : this.unit.ref(v);
  }

  /** `s` run in context `ctx`, its signal left in `sig`. */
  stmt(s: Stmt, ctx: string, sig: string): string {
    if (generatesWhole(s)) return `${sig} = f${whole(this.hooks.stmt(s))}(${ctx});`;
    switch (s.op) {
      case 'break':
        return `${sig} = 1;`;
      case 'finish':
        return `${sig} = 3;`;
      case 'offer':
        return `${sig} = H.offerActions(${ctx}, ${this.call(s.player, ctx)}, ${this.unit.ref(s.actions)});`;
      case 'if': {
        const otherwise = s.else ? this.block(s.else, ctx, sig) : `${sig} = 0;`;
        return `if (${this.call(s.cond, ctx)} === true) {${this.block(s.then, ctx, sig)}} else {${otherwise}}`;
      }
      case 'turn': {
        // `startTurn`, then the body run with the player as `me`, as link.ts's `turn` runs it in a
        // context of its own: here in `ctx`, its `me` the player's until the body ends, not a new
        // context at each turn (a driven playout's turn is often a move). Nothing reads `ctx` between:
        // the body's frames are written before it ends, the turn's own after, and a throw leaves the
        // rules that ran it, which a choice runs again from the state's frames in new contexts.
        const p = this.name('p');
        const outer = this.name('m');
        return (
          `{const ${p} = ${this.call(s.player, ctx)};H.startTurn(${ctx}, ${p}, ${this.value(s.rule)});` +
          `const ${outer} = ${ctx}.me;${ctx}.me = ${p};${this.block(s.body, ctx, sig)}${ctx}.me = ${outer};}`
        );
      }
      case 'for': {
        // As `runFor`: a copy of the list, a step before each round, the variable set after it.
        const xs = this.name('l');
        const i = this.name('i');
        const slot = whole(s.slot);
        // The state's players are never changed in place (a game's are set when it is made, a state's list replaced
        // whole if ever), so a loop over them holds the state's list, which stays the list it began with, and copies
        // it only into the frame a suspension leaves, where a copy of it is kept; a loop runs whole far more often.
        const held = s.source.op === 'players';
        const loop = `{ items: ${held ? `${xs}.slice()` : xs}, index: ${i} + 1, slot: ${slot} }`;
        const body = (b: string) => `H.spend();${ctx}.env[${slot}] = ${xs}[${i}];${this.block(s.body, ctx, b)}`;
        const list = `(${this.call(s.source, ctx)} ?? [])`;
        return `{const ${xs} = ${held ? list : `${list}.slice()`};${this.eachRound(`let ${i} = 0; ${i} < ${xs}.length; ${i}++`, body, s.body, loop, ctx, sig)}}`;
      }
      case 'repeat': {
        const max = this.name('n');
        const i = this.name('i');
        const loop = `{ count: ${i} + 1, max: ${max} }`;
        const body = (b: string) => `H.spend();${this.block(s.body, ctx, b)}`;
        return `{const ${max} = H.checkCount(${this.call(s.times, ctx)}, 0, ${this.unit.ref('the number of rounds')});${this.eachRound(`let ${i} = 0; ${i} < ${max}; ${i}++`, body, s.body, loop, ctx, sig)}}`;
      }
      default:
        throw new Error(`internal: the statement ${s.op} is not generated with the flow`);
    }
  }

  /**
   * A loop's rounds (`head`, `round` its body given the variable of the body's signal), as
   * `runFor` and `runRepeat` end them: `break` leaves the loop (its signal NORMAL), `finish` is
   * given on, and a suspension leaves the loop's frame, to go on at its next round (`loop`), after
   * the frames its body left.
   */
  private eachRound(head: string, round: (b: string) => string, body: Block, loop: string, ctx: string, sig: string): string {
    const b = this.name('s');
    return (
      `let ${b};${sig} = 0;for (${head}) {${round(b)}if (${b} === 0) continue;` +
      `if (${b} === 2) {H.pushFrame(${ctx}.st, H.frameOf(${whole(body.id)}, 0, ${ctx}, ${loop}));${sig} = 2;} else if (${b} === 3) ${sig} = 3;break;}`
    );
  }

  /**
   * Block `b` run in context `ctx` from its first statement as `runBlock` runs it, its signal left
   * in `sig`: a step and the watcher before each statement, outside the statement's `try` (a step
   * refused there is the enclosing statement's to name), and at a suspension the block's frame at
   * its next statement, where it has one. The statements at the places `passed` gives spend their
   * step and are not run (`pickedBlock`).
   */
  block(b: Block, ctx: string, sig: string, passed: ReadonlySet<number> = NONE_PASSED): string {
    const label = this.name('b');
    let code = `${label}: {`;
    b.stmts.forEach((s, i) => {
      code += `H.spend();W.statement?.(${ctx}.st);`;
      if (passed.has(i)) return;
      if (s.op === 'break' || s.op === 'finish') {
        code += `${this.stmt(s, ctx, sig)}break ${label};`;
        return;
      }
      const t = this.name('s');
      const rest = i + 1 < b.stmts.length ? `if (${t} === 2) H.pushFrame(${ctx}.st, H.frameOf(${whole(b.id)}, ${whole(i + 1)}, ${ctx}));` : '';
      const run = generatesFlow(s) && !inlined(s) ? `${t} = f${whole(this.hooks.flow(s))}(${ctx});` : this.stmt(s, ctx, t);
      code += `let ${t};try {${run}} catch (e) {throw H.placed(e, ${this.value(b.lines[i])});}`;
      code += `if (${t} !== 0) {${rest}${sig} = ${t};break ${label};}`;
    });
    return `${code}${sig} = 0;}`;
  }
}
