import type { Block, Check, Expr, FnDef, Stmt } from '../compiled.ts';
import { firstMatchOf } from '../firstMatch.ts';
import { maskable } from '../sharedChecks.ts';
import type { Value } from '../types.ts';

/**
 * JavaScript source for the pack's expressions and simple statements, made the way ajv compiles a
 * schema: from the lowered operations alone. Nothing the pack wrote is ever spliced into the text:
 * every name, text and list is put in a table (`Unit.values`) and read by its index (`k12`), numbers
 * are written by `numberLiteral` (finite ones only), and every other word of the source is ours.
 * What has no form here (a built-in that rolls, a path on a graph) is called through the table as
 * the interpreter's closure over generated arguments, so the two stay one semantics.
 *
 * Each function reads what the interpreter's closures read (`c.env`, `c.it`, `c.st` …), calls the
 * same budget checks at the same points (`spend` per element, per call, per copied list), and
 * evaluates operands in the same order, so a game is the same byte for byte either way.
 */

/** Built-ins given inline; the others are called as the interpreter links them (`Unit.builtin`). */
const INLINE_BUILTINS = new Set(['count', 'sum', 'any', 'all', 'min', 'max', 'lowest', 'highest', 'first', 'last', 'at', 'position', 'take', 'neighbours', 'adjacent', 'abs']);

/** Built-ins given inline that never give a list: counts, sums, truths, numbers. */
const SCALAR_BUILTINS = new Set(['count', 'sum', 'any', 'all', 'min', 'max', 'position', 'adjacent', 'abs']);

/**
 * Built-ins given inline that are refused by nothing but the step budget, a step at a time
 * (`Unit.quiet`): not `sum`, whose total is checked, nor `position`, which spends the list's length
 * in one call.
 */
const QUIET_BUILTINS = new Set(['count', 'any', 'all', 'min', 'max', 'lowest', 'highest', 'first', 'last', 'at', 'take', 'neighbours', 'adjacent', 'abs']);

/** `QUIET_BUILTINS` that walk no list and make none: they spend no step (`Unit.stepless`). */
const STEPLESS_BUILTINS = new Set(['count', 'min', 'max', 'first', 'last', 'at', 'abs']);

/** Whether a property's column (by entity) holds lists of texts alone: each element of each is a text. */
function listsOfTexts(column: unknown): boolean {
  if (!(column instanceof Map)) return false;
  for (const xs of column.values()) if (!Array.isArray(xs) || !xs.every((x) => typeof x === 'string')) return false;
  return true;
}

/**
 * `s` as the engine keeps a property's name: the one copy of that text it looks names up by (V8's
 * internalized string), taken from an object's keys. A field read as `r[k1]` compiles to a check
 * that `k1` is the name the record's shape holds and a load; where `k1` is another copy of the same
 * text (a compiler's text cut from the rules' source), the check asks the engine for the name's
 * copy at every read, a call out of the generated code for each field read in a loop.
 */
function named(s: string): string {
  const o: Record<string, number> = Object.create(null);
  o[s] = 0;
  return Object.keys(o)[0] ?? s;
}

/** Statements given whole, with an `if` of only such statements (`generatesWhole`); loops, turns and offers are given by emitFlow.ts where their blocks allow, the others (calls, choices, events) are the interpreter's, over generated expressions. */
const GENERATED_STATEMENTS = new Set<Stmt['op']>(['let', '=', '+=', '-=', 'require', 'log']);

/**
 * Whether `s` is given whole as a function (`Unit.statement`): one of `GENERATED_STATEMENTS`, or an
 * `if` whose blocks hold nothing else, `if`s of the same kind, `break` and `finish`. An `if` holding
 * a loop, a call or a prompt is not given here: such a block can suspend, leaving a frame of itself
 * (`runBlock`) as it unwinds; emitFlow.ts gives one of loops and offers whole, with those frames.
 */
export function generatesWhole(s: Stmt): boolean {
  if (GENERATED_STATEMENTS.has(s.op)) return true;
  if (s.op !== 'if') return false;
  const inner = (x: Stmt): boolean => x.op === 'break' || x.op === 'finish' || generatesWhole(x);
  return s.then.stmts.every(inner) && (s.else === undefined || s.else.stmts.every(inner));
}

/** A number as JavaScript source, or null when it has no plain literal (not finite, or -0): such a number goes to the table. */
export function numberLiteral(n: number): string | null {
  if (typeof n !== 'number' || !Number.isFinite(n) || Object.is(n, -0)) return null;
  const s = String(n);
  if (!/^-?(?:\d+(?:\.\d+)?)(?:e[+-]\d+)?$/.test(s)) return null;
  return n < 0 ? `(${s})` : s;
}

/** A slot, an index, a count of ours or the compiler's: a whole number, or the source is not made. */
function index(n: number): string {
  if (!Number.isSafeInteger(n) || n < -1) throw new Error(`internal: ${n} is not an index`);
  return n < 0 ? `(${n})` : String(n);
}

/** A generated value: statements to run first (`code`), then an expression without effects (`val`) that reads it. */
interface Out {
  code: string;
  val: string;
  /** `val` names a temporary or a literal: later code cannot change what it reads. */
  fixed: boolean;
  /** `val` is always `true` or `false` (a comparison, a `not`, an `and`): asked whether it is true, it is its own answer. */
  truth?: boolean;
}

/** Whether `o` is true, as source: itself where it is a truth, else whether it is `true` (a rule's condition holds only then). */
function holds(o: Out): string {
  return o.truth === true ? o.val : `${o.val} === true`;
}

/** Whether `o` is not true, as source (`holds`). */
function fails(o: Out): string {
  return o.truth === true ? `!${o.val}` : `${o.val} !== true`;
}

/** What the unit's table holds for the linker's own data: a property's column, the holders a field's write makes stale. */
export interface UnitHooks {
  /** A property's values by entity id. */
  column(field: string): unknown;
  /** The role groups a write of `field` makes stale (`holders.ts`), by kind, or undefined. */
  stale(field: string): unknown;
  /** A function of the pack, by name. */
  fn(name: string): FnDef | undefined;
  /** An entity's number (`entityNumbers.ts`), by which its record is found in a state's records by number; undefined for none. */
  number(id: string): number | undefined;
}

/**
 * The most steps a quiet loop inside another (`Unit.loop`) leaves owed: past them, it spends them. A
 * refusal there is as the interpreter's (one step past the budget); the work done past the budget
 * before it is at most these steps and the loop's own.
 */
const OWED_AT_MOST = 1000;

/** The most operations a function's body may have to be given inline where it is called. */
const MAX_INLINE_NODES = 48;

/**
 * Whether a function's body can be given inline (`fnCall`): it calls no function (so inlining
 * ends, and stays small) and no built-in given as the interpreter's closure (which would read the
 * caller's context for the function's), and it is small.
 */
function inlinable(body: Expr): boolean {
  let nodes = 0;
  const walk = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.every(walk);
    if (node === null || typeof node !== 'object') return true;
    const e = node as { op?: unknown; name?: unknown };
    if (typeof e.op === 'string' && ++nodes > MAX_INLINE_NODES) return false;
    if (e.op === 'fn' || (e.op === 'builtin' && !INLINE_BUILTINS.has(e.name as string))) return false;
    return Object.values(node).every(walk);
  };
  return walk(body);
}

/**
 * One function's source in the making: its temporaries, and the variable that holds `it` inside a
 * loop. While a function of the pack is given inline in it, `locals` are the temporaries that hold
 * that function's locals.
 */
class Fn {
  temps = 0;
  it: string | null = null;
  locals: string[] | null = null;
  /** It reads entity records: it takes the state's table once (`S`), which no rule replaces while it runs. */
  readsTable = false;
  /** It reads entity records by number: it takes the state's records by number once (`R`), kept in step with its table. */
  readsNumbered = false;
  /** It runs blocks of statements: it takes the watcher's holder once (`W`, `Unit.block`). */
  watches = false;
  /** How many built-ins given as the interpreter's closures it calls: they read `c.it`, which generated loops then set. */
  closures = 0;
  /** The temporaries holding an element of a loop over a property's list (`Walk`), and what holds it as an argument of a function given inline. */
  walks = new Map<string, Walk>();
  /** What always holds a text here (an element of a list of entities, say): a record is looked up by it without asking. */
  strings = new Set<string>();
  /** Inside a quiet loop (`Unit.loop`): the temporary counting the steps its body owes, spent when that loop ends. */
  owed: string | null = null;
  temp(): string {
    return `v${this.temps++}`;
  }
  /** Local `slot` of the rule being made: of the function given inline, else of the context. */
  local(slot: number): string {
    if (this.locals === null) return `E[${index(slot)}]`;
    const t = this.locals[slot];
    if (t === undefined) throw new Error(`internal: local ${slot} is past a function's locals`);
    return t;
  }
}

/**
 * A loop over the list a property gives an entity (`g.members`), walked element by element: a
 * property of the element read in the loop (`it.groups`) is found in a column made once of that
 * property of each element of each entity's list, in order (`Unit.alongside`), taken once before
 * the loop and read by the loop's index, where each element's read was one more look-up by its id.
 * A loop over a list of the rules' own (a kind's entities, a list written out) is walked so too, along
 * that list's own column of the property (`Unit.alongList`), which needs nothing taken.
 */
type Walk = Along & {
  /** The loop's index. */
  index: string;
  /**
   * The temporaries taken before the loop: a column's entry for the owner, by a key naming the
   * property (`Unit.take`), and a row of the enclosing walk's, by the read that gives it (`Unit.row`).
   * A read ends in an index (`[j]`), which no key holds (a field's name, or one after `#`), so
   * neither is mistaken for the other.
   */
  taken: Map<string, string>;
  /** The columns taken before the loop, each by the owner into its temporary, in the order taken. */
  columns: Array<{ temp: string; column: Map<unknown, unknown> }>;
  /** Rows taken before the loop from what the enclosing walk took, each by that walk's index (`Unit.row`). */
  rows: Array<{ temp: string; read: string }>;
  /** The walk the list's owner is an element of (`it.members` in a loop over `x.groups`), if it is one. */
  parent?: Walk;
  /**
   * The temporary holding the entity numbers of the list's elements, in order, where they are read
   * (`Unit.numbered`) from a row of the enclosing walk's: as long as the list, and a list wherever
   * the loop runs (its enclosing loop's round).
   */
  numbers?: string;
};

/** A property's column a loop's list is read from (`Unit.taken`), and the value of an owner with no list. */
type ListColumn = { column: Map<unknown, unknown>; empty: Value };

/** What a walked loop goes along: the list a property (`field`) gives the entity in the temporary `owner`, or a list of the rules. */
type Along = { owner: string; field: string } | { list: Value[] };

export class Unit {
  /** What the source reads by index: the pack's names, texts, lists, and the helpers made for it. */
  readonly values: unknown[] = [];
  /** Each function's source, by number (`f12`). */
  readonly functions: string[] = [];
  /**
   * Table entries made once every function is: a built-in given as the interpreter's closure over
   * generated arguments (`k3 = H.builtin(k2, [f7, f8])`), by entry.
   */
  readonly late: Array<{ entry: number; builtin: string; args: number[] }> = [];
  private readonly known = new Map<unknown, number>();
  /** The columns made alongside a list property's, by the list's property and the element's. */
  private readonly along = new Map<string, unknown>();
  /** The columns made alongside a list of the rules, by the element's property. */
  private readonly alongLists = new Map<Value[], Map<string, Value[] | undefined>>();
  /** The columns of entity numbers made for walks (`numbered`), by what they follow. */
  private readonly numberColumns = new Map<string, unknown>();
  /** The maps of owners' lists joined with the columns a loop takes (`taken`), by the columns' table entries. */
  private readonly joins = new Map<string, { joined: Map<unknown, unknown[]>; missing: unknown[] }>();
  /** Whether each function of the pack never gives a list (`scalar`), once asked. */
  private readonly scalarFns = new Map<string, boolean>();
  /** Whether each function of the pack is quiet (`quiet`), once asked. */
  private readonly quietFns = new Map<string, boolean>();

  constructor(private readonly hooks: UnitHooks) {}

  /** A name of the table entry holding `v` (strings, lists, maps: anything but a plain literal); a text is held as its name (`named`). */
  ref(v: unknown): string {
    let i = this.known.get(v);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(typeof v === 'string' ? named(v) : v);
      this.known.set(v, i);
    }
    return `k${i}`;
  }

  /** A value of the rules written as source: a literal for numbers, booleans and none, else the table. */
  private value(v: Value | undefined): string {
    if (v === undefined) return 'undefined';
    if (v === null) return 'null';
    if (v === true || v === false) return v ? 'true' : 'false';
    if (typeof v === 'number') return numberLiteral(v) ?? this.ref(v);
    return this.ref(v);
  }

  /** Adds a function of `c` evaluating `e`; gives its number. */
  expression(e: Expr): number {
    const f = new Fn();
    const r = this.expr(e, f);
    return this.add(f, `${r.code}return ${r.val};`);
  }

  /**
   * Adds a statement's function of `c` (`generatesWhole`), which returns the signal its blocks end
   * with as the interpreter's would (NORMAL 0, or BREAK 1 and FINISH 3 from an `if`); gives its number.
   */
  statement(s: Stmt): number {
    const f = new Fn();
    return this.add(f, `${this.stmt(s, f)}return 0;`);
  }

  /**
   * A block of an `if`, as `runBlock` runs it: a step and the watcher (`H.watch`, read at each
   * statement as `runBlock` reads it) before each statement, and a refusal its statement threw
   * named by that statement's line (`H.placed`) unless a block inside named it first. A step refused
   * before a statement began is thrown outside its `try`, so the enclosing block names it, as the
   * interpreter's does. `break` and `finish` return their signal from the whole function: each block
   * between it and the statement the interpreter runs would have returned it unchanged.
   */
  private block(b: Block, f: Fn): string {
    f.watches = true;
    let code = '';
    b.stmts.forEach((s, i) => {
      code += 'H.spend();W.statement?.(c.st);';
      if (s.op === 'break' || s.op === 'finish') code += `return ${s.op === 'break' ? 1 : 3};`;
      else code += `try {${this.stmt(s, f)}} catch (e) {throw H.placed(e, ${this.value(b.lines[i])});}`;
    });
    return code;
  }

  /**
   * An action's leading checks as its `pre(c, explain)`: the first that fails gives its reason (or,
   * `explain` false, `silent`), else null; each `let` among them sets its variable, uncopied.
   */
  pre(checks: Check[], silent: object): number {
    const f = new Fn();
    let body = '';
    for (const k of checks) {
      if ('slot' in k) {
        const v = this.expr(k.value, f);
        body += `${v.code}E[${index(k.slot)}] = ${v.val};`;
        continue;
      }
      const cond = this.expr(k.cond, f);
      const reason = this.expr(k.reason, f);
      body += `${cond.code}if (${fails(cond)}) {if (x === false) return ${this.ref(silent)};${reason.code}return { reason: ${reason.val}, rule: ${this.value(k.rule)} };}`;
    }
    return this.add(f, `${body}return null;`, 'c, x');
  }

  /**
   * An action's leading checks as its `holdsWith(c, bound, from, set)`: the place of the first of those
   * reading no parameter past the first `bound` that fails, up to the first that reads more, else
   * -1; the `require`s before place `from` are not run, nor the `let`s whose places' bits are set
   * in `set` (`x`, `y` and `z` in the source).
   */
  holdsWith(checks: Check[], needs: number[]): number {
    const f = new Fn();
    let body = '';
    checks.forEach((k, i) => {
      body += `if (${index(needs[i])} > x) return -1;`;
      if ('slot' in k) {
        const v = this.expr(k.value, f);
        body += !maskable(i) ? `${v.code}E[${index(k.slot)}] = ${v.val};` : `if ((z & ${index(1 << i)}) === 0) {${v.code}E[${index(k.slot)}] = ${v.val};}`;
      } else {
        const cond = this.expr(k.cond, f);
        body += `if (y <= ${index(i)}) {${cond.code}if (${fails(cond)}) return ${index(i)};}`;
      }
    });
    return this.add(f, `${body}return -1;`, 'c, x, y, z');
  }

  /**
   * An action of one parameter's `candidates(c, d, out)`: each value of the domain `d` that passes the
   * leading checks reading no parameter past the first, pushed onto `out` in order; what
   * `holdsWith(c, 1, 0, 0)` says of each, with the context's locals made ready for each as listing
   * makes them (`slots` locals, the value in the first), but one loop with the checks written in it,
   * where listing called `holdsWith` for every candidate.
   */
  candidates(checks: Check[], needs: number[], slots: number, domain?: Expr): number {
    const f = new Fn();
    let ready = 'E[0] = d[j];';
    for (let s = 1; s < slots; s++) ready += `E[${index(s)}] = null;`;
    // A domain of the rules' own (every entity of a kind): the parameter walked along it (`Walk`). A listing lists
    // the list its domain gives (`valuesOf`), and a domain written out gives that very list, the one walked: any
    // other is a fault of ours, not a game to list by another loop.
    const own = domain?.op === 'const' && Array.isArray(domain.value) ? domain.value : undefined;
    let guard = '';
    if (own !== undefined) {
      f.walks.set('E[0]', { list: own, index: 'j', taken: new Map(), columns: [], rows: [] });
      if (own.every((x) => typeof x === 'string')) f.strings.add('E[0]');
      guard = `if (d !== ${this.ref(own)}) throw new Error(${this.ref('internal: candidates listed from another list than their domain')});`;
    }
    const closures = f.closures;
    let body = '';
    for (let i = 0; i < checks.length && needs[i] <= 1; i++) {
      const k = checks[i];
      if ('slot' in k) {
        const v = this.expr(k.value, f);
        body += `${v.code}E[${index(k.slot)}] = ${v.val};`;
      } else {
        const cond = this.expr(k.cond, f);
        body += `${cond.code}if (${fails(cond)}) continue;`;
      }
    }
    // Nothing but the interpreter's closures sets the context's `it` (and puts it back), and nothing sets its `value`:
    // with none among the checks, they are made none once, not for each candidate. Nor are the locals made ready where
    // the checks read none: their code names a local only as `E[…]` (`Fn.local`; a parameter walked along its domain
    // is read by the loop's index instead), and only those closures read the context's otherwise. The listing's context
    // is its own (`listingCtx`), whose locals nothing reads after the candidates but what empties them first (`withArgs`).
    if (f.closures === closures) {
      if (!body.includes('E[')) ready = '';
      return this.add(f, `${guard}if (d.length !== 0) {c.it = null; c.value = null;}for (let j = 0; j < d.length; j++) {${ready}${body}out.push(d[j]);}`, 'c, d, out');
    }
    return this.add(f, `${guard}for (let j = 0; j < d.length; j++) {${ready}c.it = null;c.value = null;${body}out.push(d[j]);}`, 'c, d, out');
  }

  /**
   * Adds a function whose whole source another emitter of this unit made (`emitFlow.ts`), reading
   * this unit's functions and table by name; gives its number.
   */
  addSource(source: string): number {
    this.functions.push(source);
    return this.functions.length - 1;
  }

  /** A function of `c` (or of `params`, arguments of ours after it) with `body`. */
  private add(f: Fn, body: string, params = 'c'): number {
    const temps = f.temps ? `let ${Array.from({ length: f.temps }, (_, i) => `v${i}`).join(', ')};` : '';
    this.functions.push(`function (${params}) {const E = c.env;${f.readsTable ? 'const S = c.st.e;' : ''}${f.readsNumbered ? 'const R = H.records(c.st);' : ''}${f.watches ? 'const W = H.watch;' : ''}${temps}${body}}`);
    return this.functions.length - 1;
  }

  private stmt(s: Stmt, f: Fn): string {
    switch (s.op) {
      case 'let': {
        const v = this.expr(s.value, f);
        // A list is copied into a variable; a value never a list (`scalar`) is not asked whether it is one.
        if (this.scalar(s.value)) return `${v.code}E[${index(s.slot)}] = ${v.val};`;
        return `${v.code}{const x = ${v.val}; E[${index(s.slot)}] = Array.isArray(x) ? H.copied(x) : x;}`;
      }
      case '=':
      case '+=':
      case '-=': {
        // The value before the record, as the interpreter takes them: the holders a write makes stale are found at the write.
        const v = this.expr(s.value, f);
        const x = f.temp();
        const target = this.expr(s.record.target, f);
        const field = this.ref(s.field);
        // An entity the rules name is found among the records by its number (ours, written as a number): the runtime's
        // look-up of an id, at one place in its code for every write of a pack, is V8's generic keyed load (H.recordAt).
        const t = s.record.target;
        const n = t.op === 'const' && typeof t.value === 'string' ? this.hooks.number(t.value) : undefined;
        if (n !== undefined) f.readsNumbered = true;
        const rec =
          n !== undefined
            ? `H.recordAt(c, R[${Math.trunc(n)}], ${target.val}, ${this.ref(s.record.what)}, ${this.ref(this.hooks.stale(s.field))}, ${field})`
            : `H.record(c, ${target.val}, ${this.ref(s.record.what)}, ${this.ref(this.hooks.stale(s.field))}, ${field})`;
        if (s.op === '=') return `${v.code}${x} = ${v.val};${target.code}${rec}[${field}] = ${this.scalar(s.value) ? x : `Array.isArray(${x}) ? H.copied(${x}) : ${x}`};`;
        const add = s.op === '+=';
        return (
          `${v.code}${x} = ${v.val};${target.code}{const r = ${rec}; const old = r[${field}];` +
          `if (Array.isArray(old)) r[${field}] = ${add ? `H.concat(old, ${x})` : `H.without(old, ${x})`};` +
          `else {const n = old ${add ? '+' : '-'} ${x}; r[${field}] = Number.isFinite(n) ? n : H.badWrite(n, ${field}, ${add ? '"+"' : '"-"'}, ${x});}}`
        );
      }
      case 'require': {
        const cond = this.expr(s.cond, f);
        const reason = this.expr(s.reason, f);
        return `${cond.code}if (${fails(cond)}) {${reason.code}throw new H.Refusal(${reason.val}, ${this.value(s.rule)});}`;
      }
      case 'if': {
        const cond = this.expr(s.cond, f);
        const then = this.block(s.then, f);
        const otherwise = s.else ? this.block(s.else, f) : '';
        return `${cond.code}if (${holds(cond)}) {${then}}${otherwise === '' ? '' : ` else {${otherwise}}`}`;
      }
      case 'log': {
        if (s.text.op === 'text') {
          // Each part shown as it is evaluated; the line is made only where it is kept or might not fit (`surelyFits`).
          let code = '';
          const shown: string[] = [];
          const lengths: string[] = [];
          let length = 0;
          for (const p of s.text.parts) {
            if (typeof p === 'string') {
              shown.push(this.ref(p));
              length += p.length;
              continue;
            }
            const x = this.expr(p, f);
            const d = f.temp();
            code += `${x.code}${d} = H.display(c.prog.pack, ${x.val});`;
            shown.push(d);
            lengths.push(`${d}.length`);
          }
          return `${code}if (H.logKept() || !H.surelyFits(c.prog.pack, ${[index(length), ...lengths].join(' + ')})) H.logLine(c.st, c.step, H.checkText(H.pluralize(c.prog.pack, "" + ${shown.join(' + ')})), ${this.value(s.rule)}, c.me ?? undefined);`;
        }
        const text = this.expr(s.text, f);
        return `${text.code}H.logLine(c.st, c.step, ${text.val}, ${this.value(s.rule)}, c.me ?? undefined);`;
      }
      default:
        throw new Error(`internal: the statement ${s.op} is not generated`);
    }
  }

  /** `outs` in order: one whose value later code could change is first kept in a temporary. */
  private seq(f: Fn, outs: Out[]): { code: string; vals: string[] } {
    let code = '';
    const vals: string[] = [];
    for (let i = 0; i < outs.length; i++) {
      const o = outs[i];
      code += o.code;
      if (!o.fixed && outs.slice(i + 1).some((later) => later.code !== '')) {
        const t = f.temp();
        code += `${t} = ${o.val};`;
        vals.push(t);
      } else vals.push(o.val);
    }
    return { code, vals };
  }

  private into(f: Fn, code: string, val: string): Out {
    const t = f.temp();
    return { code: `${code}${t} = ${val};`, val: t, fixed: true };
  }

  private expr(e: Expr, f: Fn): Out {
    switch (e.op) {
      case 'const':
        return { code: '', val: this.value(e.value), fixed: true };
      case 'text': {
        const t = f.temp();
        let code = `${t} = "";`;
        for (const p of e.parts) {
          if (typeof p === 'string') code += `${t} += ${this.ref(p)};`;
          else {
            const x = this.expr(p, f);
            code += `${x.code}${t} += H.display(c.prog.pack, ${x.val});`;
          }
        }
        return this.into(f, code, `H.checkText(H.pluralize(c.prog.pack, ${t}))`);
      }
      case 'local':
        return { code: '', val: f.local(e.slot), fixed: false };
      case 'value':
        // A function's own context has no value.
        return f.locals === null ? { code: '', val: 'c.value', fixed: false } : { code: '', val: 'null', fixed: true };
      case 'me':
      case 'self':
      case 'holder':
        return { code: '', val: `c.${e.op}`, fixed: false };
      case 'it':
        return f.it ? { code: '', val: f.it, fixed: true } : { code: '', val: 'c.it', fixed: false };
      case 'players':
        return { code: '', val: 'c.st.players', fixed: false };
      case 'current':
        return { code: '', val: 'c.st.current', fixed: false };
      case 'prop': {
        const t = this.expr(e.target, f);
        const walked = this.walked(f, t.val, e);
        if (walked !== undefined) return { code: t.code, val: walked, fixed: false };
        // A column is keyed by entity ids alone: anything else (none, a number, a list) is found in none of them.
        return this.into(f, t.code, `(${this.ref(this.hooks.column(e.field))}.get(${t.val}) ?? ${this.value(e.empty)})`);
      }
      case 'field': {
        const t = this.expr(e.target, f);
        const rec = f.temp();
        const empty = this.value(e.empty);
        const n = this.numbered(f, t.val);
        // The records by number and a table hold records or nothing: a record found is told by `!== undefined`, not by
        // asking it whether it is true (which asks what kind of value it is first).
        if (n !== undefined) {
          f.readsNumbered = true;
          return this.into(f, t.code, `((${rec} = R[${n}]) !== undefined ? (${rec}[${this.ref(e.field)}] ?? ${empty}) : ${empty})`);
        }
        f.readsTable = true;
        const read = (id: string) => `((${rec} = S[${id}]) !== undefined ? (${rec}[${this.ref(e.field)}] ?? ${empty}) : ${empty})`;
        // Only a text names a record: what is not one (none, a number) would be read as a text by `S[…]`.
        if (f.strings.has(t.val)) return this.into(f, t.code, read(t.val));
        const id = f.temp();
        return this.into(f, `${t.code}${id} = ${t.val};`, `typeof ${id} === "string" ? ${read(id)} : ${empty}`);
      }
      case 'not': {
        const x = this.expr(e.operand, f);
        return { code: x.code, val: `(${fails(x)})`, fixed: false, truth: true };
      }
      case 'negate': {
        const x = this.expr(e.operand, f);
        return { code: x.code, val: `(-${x.val})`, fixed: false };
      }
      case 'if': {
        const cond = this.expr(e.cond, f);
        const a = this.expr(e.then, f);
        const b = this.expr(e.else, f);
        if (!a.code && !b.code) return { code: cond.code, val: `(${holds(cond)} ? ${a.val} : ${b.val})`, fixed: false };
        const t = f.temp();
        return { code: `${cond.code}if (${holds(cond)}) {${a.code}${t} = ${a.val};} else {${b.code}${t} = ${b.val};}`, val: t, fixed: true };
      }
      case 'and':
      case 'or': {
        const l = this.expr(e.left, f);
        const r = this.expr(e.right, f);
        const js = e.op === 'and' ? '&&' : '||';
        if (!r.code) return { code: l.code, val: `(${holds(l)} ${js} ${holds(r)})`, fixed: false, truth: true };
        const t = f.temp();
        const test = e.op === 'and' ? t : `!${t}`;
        return { code: `${l.code}${t} = ${holds(l)}; if (${test}) {${r.code}${t} = ${holds(r)};}`, val: t, fixed: true, truth: true };
      }
      case 'where':
        return this.where(e, f);
      case 'list': {
        const s = this.seq(
          f,
          e.items.map((i) => this.expr(i, f)),
        );
        return this.into(f, s.code, `[${s.vals.join(', ')}]`);
      }
      case 'range':
        return this.call(f, 'H.rangeOf', [e.from, e.to]);
      case 'fn':
        return this.fnCall(e, f);
      case 'pipeline':
        return this.pipelineCall(e, f);
      case 'builtin':
        if (INLINE_BUILTINS.has(e.name)) return this.builtin(e, f);
        f.closures++;
        return this.into(f, '', `${this.interpreted(e)}(c)`);
      default:
        return this.binary(e, f);
    }
  }

  /** A built-in as the interpreter links it, over its arguments as generated functions: a table entry filled once they exist. */
  private interpreted(e: Extract<Expr, { op: 'builtin' }>): string {
    const args = e.args.map((a) => this.expression(a));
    const entry = this.values.length;
    this.values.push(undefined);
    this.late.push({ entry, builtin: this.ref(e), args });
    return `k${entry}`;
  }

  /** `name(args…)` of a helper, its arguments evaluated in order. */
  private call(f: Fn, name: string, args: Expr[], wrap = (vals: string[]) => vals): Out {
    const s = this.seq(
      f,
      args.map((a) => this.expr(a, f)),
    );
    return this.into(f, s.code, `${name}(${wrap(s.vals).join(', ')})`);
  }

  private binary(e: Extract<Expr, { left: Expr }>, f: Fn): Out {
    const s = this.seq(f, [this.expr(e.left, f), this.expr(e.right, f)]);
    const [a, b] = s.vals;
    const checked = (op: string, val: (x: string, y: string) => string): Out => {
      const x = f.temp();
      const y = f.temp();
      const n = f.temp();
      return { code: `${s.code}${x} = ${a}; ${y} = ${b}; ${n} = ${val(x, y)}; if (!Number.isFinite(${n})) H.badNumber(${n}, ${x}, "${op}", ${y});`, val: n, fixed: true };
    };
    switch (e.op) {
      case '==':
      case '!=': {
        // Where a side is never a list, lists' element-wise equality cannot hold: the values are equal or not.
        if (this.scalar(e.left) || this.scalar(e.right)) {
          const js = e.op === '==' ? '===' : '!==';
          const none = e.right.op !== 'const' && this.orNone(e.left) ? a : e.left.op !== 'const' && this.orNone(e.right) ? b : undefined;
          if (none === undefined) return { code: s.code, val: `(${a} ${js} ${b})`, fixed: false, truth: true };
          // A field that may be none compared with what is not a literal (an optional player field with `me`): none is told apart
          // by a `===` of its own, so the other sees only what the field holds besides (players' ids, V8's own copies of
          // their texts: runtime/players.ts), which V8 compares inline by pointer; one `===` seeing none and texts alike
          // it compares by a call of its general comparison, at every element a loop reads.
          const x = f.temp();
          const other = none === a ? b : a;
          return { code: `${s.code}${x} = ${none};`, val: `(${x} === null ? ${other} ${js} null : ${x} ${js} ${other})`, fixed: false, truth: true };
        }
        const x = f.temp();
        const y = f.temp();
        const same = `((${x} = ${a}) === (${y} = ${b}) || (Array.isArray(${x}) && H.same(${x}, ${y})))`;
        return { code: s.code, val: e.op === '==' ? same : `!${same}`, fixed: false, truth: true };
      }
      case 'in':
        return { ...this.into(f, s.code, `H.inList(${a}, ${b})`), truth: true };
      case '<':
      case '<=':
      case '>':
      case '>=':
        return { code: s.code, val: `(${a} ${e.op} ${b})`, fixed: false, truth: true };
      case '*':
      case '+':
      case '-':
        return checked(e.op, (x, y) => `${x} ${e.op} ${y}`);
      case '/':
        return checked('/', (x, y) => `Math.floor(${x} / (${y} = ${y} || 1))`);
      case '%':
        return { code: s.code, val: `(${a} % (${b} || 1))`, fixed: false };
      case 'concat':
        return this.into(f, s.code, `H.concat(${a} ?? [], ${b} ?? [])`);
      case 'without':
        return this.into(f, s.code, `H.without(${a} ?? [], ${b} ?? [])`);
      case 'join':
        return this.into(f, s.code, `H.checkText(String(${a}) + String(${b}))`);
      default:
        throw new Error(`internal: the operation ${(e as Expr).op} is not generated`);
    }
  }

  /** Whether `e` reads a field or property whose empty value is none: it gives none where nothing is set. */
  private orNone(e: Expr): boolean {
    return (e.op === 'field' || e.op === 'prop') && e.empty === null;
  }

  /**
   * Whether `e` never gives a list, whatever the game: an entity, a number, a text, a truth, none.
   * A read of a field gives a list only where its type is a list, whose empty value is then the
   * empty list (`compiler/lower.ts`), so a field whose empty value is not a list never holds one.
   * What it cannot tell (a local, `it`, an element of a list) may be a list.
   */
  private scalar(e: Expr): boolean {
    switch (e.op) {
      case 'const':
        return !Array.isArray(e.value);
      case 'me':
      case 'self':
      case 'holder':
      case 'current':
      case 'text':
      case 'join':
      case 'not':
      case 'negate':
      case 'and':
      case 'or':
      case '==':
      case '!=':
      case 'in':
      case '<':
      case '<=':
      case '>':
      case '>=':
      case '*':
      case '/':
      case '%':
      case '+':
      case '-':
        return true;
      case 'prop':
      case 'field':
        return !Array.isArray(e.empty);
      case 'if':
        return this.scalar(e.then) && this.scalar(e.else);
      case 'builtin':
        return SCALAR_BUILTINS.has(e.name);
      case 'fn': {
        // Each function's answer is kept: a function calling another in both branches of an `if`, forty deep, is walked once each.
        let known = this.scalarFns.get(e.name);
        if (known === undefined) {
          this.scalarFns.set(e.name, false);
          const def = this.hooks.fn(e.name);
          known = def !== undefined && this.scalar(def.body);
          this.scalarFns.set(e.name, known);
        }
        return known;
      }
      default:
        return false;
    }
  }

  /**
   * Whether evaluating `e` spends no step, can be refused by nothing and changes nothing: `quiet`
   * with no loop (`where`, a built-in that walks a list), no list made and no function called. Run
   * again on the state and locals it just ran on, it gives what it gave, and skipping it leaves the
   * game and its count of steps as they were (`emitFlow.ts`'s `pickedBlock`).
   */
  stepless(e: Expr): boolean {
    return this.calm(e, true);
  }

  /**
   * Whether evaluating `e` can be refused by nothing but the step budget, a step at a time, and
   * changes nothing but the rule's locals and `it`: no arithmetic (refused where it overflows), no
   * text or joined list (their budgets), no range, no call of the interpreter's closures, pipelines
   * or functions not given inline, and nothing that spends many steps in one call (`in`, `-` on
   * lists, `position`: one past the budget there leaves the count as far past as the call's spend
   * reached, which a count spent at the loop's end cannot know). A loop over such a body (`loop`)
   * spends its steps when it ends: were the budget to run out inside, nothing in between could be
   * refused otherwise or be seen after the refusal, and the count is one past the budget either way.
   */
  private quiet(e: Expr): boolean {
    return this.calm(e, false);
  }

  /** `quiet`, or with `stepless` `stepless`: the same walk, which a stepless expression ends sooner. */
  private calm(e: Expr, stepless: boolean): boolean {
    switch (e.op) {
      case 'const':
      case 'local':
      case 'value':
      case 'me':
      case 'self':
      case 'holder':
      case 'it':
      case 'players':
      case 'current':
        return true;
      case 'prop':
      case 'field':
        return this.calm(e.target, stepless);
      case 'not':
      case 'negate':
        return this.calm(e.operand, stepless);
      case 'and':
      case 'or':
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
      case '%':
        return this.calm(e.left, stepless) && this.calm(e.right, stepless);
      case 'if':
        return this.calm(e.cond, stepless) && this.calm(e.then, stepless) && this.calm(e.else, stepless);
      case 'where':
        return !stepless && this.calm(e.source, false) && this.calm(e.cond, false);
      case 'list':
        return !stepless && e.items.every((x) => this.calm(x, false));
      case 'builtin':
        return (stepless ? STEPLESS_BUILTINS : QUIET_BUILTINS).has(e.name) && e.args.every((x) => this.calm(x, stepless));
      case 'fn': {
        if (stepless || !e.args.every((x) => this.quiet(x))) return false;
        let known = this.quietFns.get(e.name);
        if (known === undefined) {
          this.quietFns.set(e.name, false);
          const def = this.hooks.fn(e.name);
          known = def !== undefined && inlinable(def.body) && this.quiet(def.body);
          this.quietFns.set(e.name, known);
        }
        return known;
      }
      default:
        return false;
    }
  }

  /**
   * A loop over a list with `it` set to each element, in a temporary of this function, and in `c.it`
   * where a closure of the interpreter inside reads it, `c.it` put back after, as the interpreter
   * does. Nothing else reads a context's `it`: a function or pipeline called takes a context of its
   * own, and a context a refusal leaves is not used again.
   */
  private loop(f: Fn, source: Out, body: (x: string) => string, quiet: boolean, over?: Along, strings = false, parent?: Walk, from?: ListColumn): string {
    const xs = f.temp();
    const i = f.temp();
    const x = f.temp();
    const outer = f.it;
    const closures = f.closures;
    const walk: Walk | undefined = over && { ...over, index: i, taken: new Map(), columns: [], rows: [], parent };
    if (walk) f.walks.set(x, walk);
    if (strings) f.strings.add(x);
    f.it = x;
    // The outermost quiet loop counts the steps of every loop and function given inline within it (`owed`).
    const owed = quiet && f.owed === null ? f.temp() : null;
    if (owed !== null) f.owed = owed;
    const inner = body(x);
    if (owed !== null) f.owed = null;
    f.it = outer;
    f.walks.delete(x);
    f.strings.delete(x);
    // A walk whose body reads its elements only by their numbers (the element's own temporary not in its code, no
    // closure given it as `it`, no column taken by the owner) goes along the row of those numbers, as long as its
    // list: the list itself, a read and a test for none each round of the enclosing loop, is not taken.
    const bare = walk?.numbers !== undefined && walk.columns.length === 0 && f.closures === closures && !new RegExp(`\\b${x}\\b`).test(inner);
    const length = bare ? `${walk!.numbers}.length` : `${xs}.length`;
    let taken: string;
    if (walk === undefined) taken = `${source.code}${xs} = ${source.val} ?? [];`;
    else taken = bare ? walk.rows.map((r) => `${r.temp} = ${r.read};`).join('') : this.taken(f, walk, source, xs, from);
    const each = quiet ? '' : 'H.spend(); ';
    const count = `(${i} < ${length} ? ${i} + 1 : ${i})`;
    let spent = '';
    // A quiet body (`quiet`) is refused by nothing but the step budget and changes nothing a refusal leaves: its
    // elements' steps (a break's element counted), and those of the loops inside it, are counted, and spent at once
    // when the outermost quiet loop ends, refused at the same count (`H.spendMany`). A loop inside spends what is owed
    // once it is past `OWED_AT_MOST`, so that loops within loops refused early are not run to their end first.
    if (owed !== null) spent = `H.spendMany(${owed} + ${count});`;
    else if (quiet) spent = `${f.owed} += ${count}; if (${f.owed} > ${index(OWED_AT_MOST)}) {H.spendMany(${f.owed}); ${f.owed} = 0;}`;
    const start = owed === null ? '' : `${owed} = 0;`;
    if (f.closures === closures) return `${start}${taken} for (${i} = 0; ${i} < ${length}; ${i}++) {${each}${bare ? '' : `${x} = ${xs}[${i}];`}${inner}}${spent}`;
    const saved = f.temp();
    return `${start}${taken} ${saved} = c.it; for (${i} = 0; ${i} < ${xs}.length; ${i}++) {${each}${x} = ${xs}[${i}]; c.it = ${x};${inner}} c.it = ${saved};${spent}`;
  }

  /**
   * A loop over `source` (`loop`), walked along (`Walk`) where it is the list a property gives an
   * entity; `quiet` where its body is (`quiet`).
   */
  private loopOver(f: Fn, source: Expr, body: (x: string) => string, quiet: boolean): string {
    if (source.op === 'const' && Array.isArray(source.value)) return this.loop(f, this.expr(source, f), body, quiet, { list: source.value }, source.value.every((x) => typeof x === 'string'));
    if (source.op !== 'prop') return this.loop(f, this.expr(source, f), body, quiet);
    const t = this.expr(source.target, f);
    const owner = f.temp();
    const empty = this.value(source.empty);
    const column = this.hooks.column(source.field);
    const walked = this.walked(f, t.val, source);
    const parent = f.walks.get(t.val);
    // A list read from its column is read with the columns the loop takes, in one look-up (`taken`).
    if (walked === undefined && column instanceof Map) {
      const owned = { code: `${t.code}${owner} = ${t.val};`, val: empty, fixed: true };
      return this.loop(f, owned, body, quiet, { owner, field: source.field }, listsOfTexts(column), parent, { column, empty: source.empty });
    }
    const read = walked ?? `(${this.ref(column)}.get(${owner}) ?? ${empty})`;
    const list = this.into(f, `${t.code}${owner} = ${t.val};`, read);
    return this.loop(f, list, body, quiet, { owner, field: source.field }, listsOfTexts(column), parent);
  }

  /**
   * A walk's list in `xs` and the columns its loop takes (`Walk.columns`), read before the loop. A
   * list read from its property's column (`from`, its owner in `source.code`) is read with them in
   * one look-up of the owner, in a map made when the code is of the owner's list and its entry of
   * each column: the columns are made of the same owners' lists, so an owner with no list has no
   * entry in any (`missing`). Otherwise each column is looked up by the owner.
   */
  private taken(f: Fn, walk: Walk, source: Out, xs: string, from?: ListColumn): string {
    const owner = 'owner' in walk ? walk.owner : '';
    const each = walk.columns.map((c) => `${c.temp} = ${this.ref(c.column)}.get(${owner});`).join('');
    const rows = walk.rows.map((r) => `${r.temp} = ${r.read};`).join('');
    if (from === undefined || walk.columns.length === 0) {
      const read = from === undefined ? source.val : `(${this.ref(from.column)}.get(${owner}) ?? ${source.val})`;
      return `${source.code}${xs} = ${read} ?? [];${each}${rows}`;
    }
    const key = [from.column, ...walk.columns.map((c) => c.column)].map((c) => this.ref(c)).join(' ');
    let both = this.joins.get(key);
    if (both === undefined) {
      // A list of none is walked as an empty one: made so here, once, where the loop asked each time.
      const joined = new Map<unknown, unknown[]>();
      for (const [id, list] of from.column) joined.set(id, [list ?? [], ...walk.columns.map((c) => c.column.get(id))]);
      both = { joined, missing: [from.empty ?? [], ...walk.columns.map(() => undefined)] };
      this.joins.set(key, both);
    }
    const e = f.temp();
    const parts = walk.columns.map((c, i) => `${c.temp} = ${e}[${index(i + 1)}];`).join('');
    return `${source.code}${e} = ${this.ref(both.joined)}.get(${owner}) ?? ${this.ref(both.missing)};${xs} = ${e}[0];${parts}${rows}`;
  }

  /** The read of property `e` of `target` where `target` is an element walked along (`Walk`): its place in the column taken before the loop. */
  private walked(f: Fn, target: string, e: { field: string; empty: Value }): string | undefined {
    const walk = f.walks.get(target);
    if (walk === undefined) return undefined;
    if ('list' in walk) {
      const values = this.alongList(walk.list, e.field, e.empty);
      return values === undefined ? undefined : `${this.ref(values)}[${walk.index}]`;
    }
    const column = this.alongside(walk.field, e.field, e.empty);
    return column && `${this.take(f, walk, column, e.field)}[${walk.index}]`;
  }

  /**
   * The number of the entity `target` holds where it is an element walked along (`Walk`), as
   * source: read from a column of numbers made when the code is, by the loop's index (and the
   * enclosing walk's, for a list of an element walked in its turn), so that its record is read from
   * the state's records by number (`R`), an array, where its id was looked up in the state's table,
   * a hash table. Undefined where an element is not an entity with a number.
   */
  private numbered(f: Fn, target: string): string | undefined {
    const walk = f.walks.get(target);
    if (walk === undefined) return undefined;
    if ('list' in walk) {
      const numbers = this.numbersOf(walk.list);
      return numbers && `${this.ref(numbers)}[${walk.index}]`;
    }
    const lists = this.listColumn(walk.field);
    if (lists === undefined) return undefined;
    const numbers = (id: unknown) => this.numbersOf(lists.get(id) ?? []);
    const p = walk.parent;
    if (p === undefined) {
      const column = this.numberColumn(walk.field, [...lists.keys()], numbers);
      return column && `${this.take(f, walk, column, `# ${walk.field}`)}[${walk.index}]`;
    }
    // A list of an element walked along a list: its numbers, for each element of the outer list, taken along that one.
    if ('list' in p) {
      const outer = p.list.map(numbers);
      if (!outer.every((n) => n !== undefined)) return undefined;
      walk.numbers = this.row(f, walk, `${this.ref(outer)}[${p.index}]`);
      return `${walk.numbers}[${walk.index}]`;
    }
    const outerLists = this.listColumn(p.field);
    if (outerLists === undefined) return undefined;
    const column = this.numberColumn(`${p.field} ${walk.field}`, [...outerLists.keys()], (id) => {
      const each = (outerLists.get(id) ?? []).map(numbers);
      return each.every((n) => n !== undefined) ? (each as number[][]) : undefined;
    });
    if (column === undefined) return undefined;
    walk.numbers = this.row(f, walk, `${this.take(f, p, column, `# ${p.field} ${walk.field}`)}[${p.index}]`);
    return `${walk.numbers}[${walk.index}]`;
  }

  /** A temporary holding `read`, the row of a walk's enclosing walk's column for its element, taken once before the walk's loop (`Walk.rows`). */
  private row(f: Fn, walk: Walk, read: string): string {
    return this.takenOnce(f, walk, read, (temp) => walk.rows.push({ temp, read }));
  }

  /** The numbers of the entities of `list`, in order, or undefined where one has none. */
  private numbersOf(list: Value[]): number[] | undefined {
    const out: number[] = [];
    for (const x of list) {
      const n = typeof x === 'string' ? this.hooks.number(x) : undefined;
      if (n === undefined) return undefined;
      out.push(n);
    }
    return out;
  }

  /** A property's column where each value is a list, else undefined. */
  private listColumn(field: string): Map<unknown, Value[]> | undefined {
    const column = this.hooks.column(field);
    return column instanceof Map && [...column.values()].every((xs) => Array.isArray(xs)) ? (column as Map<unknown, Value[]>) : undefined;
  }

  /** By entity id, what `of` gives of each id, made once for `key`; undefined where it gives undefined for one. */
  private numberColumn<T>(key: string, ids: unknown[], of: (id: unknown) => T | undefined): Map<unknown, T> | undefined {
    if (this.numberColumns.has(key)) return this.numberColumns.get(key) as Map<unknown, T> | undefined;
    let made: Map<unknown, T> | undefined = new Map();
    for (const id of ids) {
      const v = of(id);
      if (v === undefined) {
        made = undefined;
        break;
      }
      made.set(id, v);
    }
    this.numberColumns.set(key, made);
    return made;
  }

  /** A temporary holding `column`'s entry for the entity in `walk`'s owner, taken once before its loop. */
  private take(f: Fn, walk: Walk, column: Map<unknown, unknown>, key: string): string {
    return this.takenOnce(f, walk, key, (temp) => walk.columns.push({ temp, column }));
  }

  /** The temporary `walk` holds under `key` (`Walk.taken`), made the first time it is asked for and then given to `keep`, which says what fills it before the loop. */
  private takenOnce(f: Fn, walk: Walk, key: string, keep: (temp: string) => void): string {
    let temp = walk.taken.get(key);
    if (temp === undefined) {
      temp = f.temp();
      walk.taken.set(key, temp);
      keep(temp);
    }
    return temp;
  }

  /** `field` of each element of `list`, in order, as a read of it gives it (through none or an id with none, `empty`). */
  private alongList(list: Value[], field: string, empty: Value): Value[] | undefined {
    let byField = this.alongLists.get(list);
    if (byField === undefined) this.alongLists.set(list, (byField = new Map()));
    const key = JSON.stringify([field, empty]);
    if (byField.has(key)) return byField.get(key);
    const values = this.hooks.column(field);
    const made = values instanceof Map ? list.map((x) => (typeof x === 'string' ? ((values.get(x) as Value | undefined) ?? empty) : empty)) : undefined;
    byField.set(key, made);
    return made;
  }

  /**
   * The column of `field` alongside the lists of `list`'s column: by entity, for each element of its
   * list in order, that element's `field` as a read of it gives it (through none or an id with
   * none, `empty`); undefined where a list's value is not a list.
   */
  private alongside(list: string, field: string, empty: Value): Map<unknown, Value[]> | undefined {
    const key = JSON.stringify([list, field, empty]);
    if (this.along.has(key)) return this.along.get(key) as Map<unknown, Value[]> | undefined;
    const lists = this.hooks.column(list);
    const values = this.hooks.column(field);
    let made: Map<unknown, Value[]> | undefined;
    if (lists instanceof Map && values instanceof Map && [...lists.values()].every((xs) => xs === null || Array.isArray(xs))) {
      made = new Map();
      for (const [id, xs] of lists as Map<unknown, Value[] | null>) {
        if (xs !== null) made.set(id, xs.map((x) => (typeof x === 'string' ? ((values.get(x) as Value | undefined) ?? empty) : empty)));
      }
    }
    this.along.set(key, made);
    return made;
  }

  private where(e: Extract<Expr, { op: 'where' }>, f: Fn): Out {
    const out = f.temp();
    const code = this.loopOver(
      f,
      e.source,
      (x) => {
        const cond = this.expr(e.cond, f);
        return `${e.slot >= 0 ? `${f.local(e.slot)} = ${x};` : ''}${cond.code}if (${holds(cond)}) ${out}.push(${x});`;
      },
      this.quiet(e.cond),
    );
    return { code: `${out} = [];${code}`, val: out, fixed: true };
  }

  private builtin(e: Extract<Expr, { op: 'builtin' }>, f: Fn): Out {
    const [a, b] = e.args;
    const list = (x: string) => `(${x} ?? [])`;
    switch (e.name) {
      case 'count':
        return this.call(f, '', [a], ([x]) => [`${list(x)}.length`]);
      case 'min':
      case 'max':
        return this.call(f, `Math.${e.name}`, [a, b]);
      case 'abs':
        return this.call(f, 'Math.abs', [a]);
      case 'first': {
        const w = firstMatchOf(e);
        if (!w) return this.call(f, '', [a], ([x]) => [`${list(x)}[0] ?? null`]);
        const found = f.temp();
        const code = this.loopOver(
          f,
          w.source,
          (x) => {
            const cond = this.expr(w.cond, f);
            return `${cond.code}if (${holds(cond)}) {${found} = ${x}; break;}`;
          },
          this.quiet(w.cond),
        );
        return { code: `${found} = null;${code}`, val: found, fixed: true };
      }
      case 'last': {
        const xs = f.temp();
        return this.call(f, '', [a], ([x]) => [`(${xs} = ${list(x)})[${xs}.length - 1] ?? null`]);
      }
      case 'at':
        return this.call(f, '', [a, b], ([x, n]) => [`${list(x)}[${n} - 1] ?? null`]);
      case 'take':
        return this.call(f, '', [a, b], ([x, n]) => [`${list(x)}.slice(0, Math.max(0, ${n}))`]);
      case 'position':
        // The value first, then the list, as the interpreter reads them.
        return this.call(f, 'H.position', [b, a]);
      case 'neighbours':
        return this.call(f, '', [a], ([x]) => [`c.prog.pack.links[${x}] ?? []`]);
      case 'adjacent':
        return this.call(f, '', [a, b], ([x, y]) => [`(c.prog.pack.links[${x}] ?? []).includes(${y})`]);
      case 'sum': {
        const total = f.temp();
        const code = this.loopOver(
          f,
          a,
          () => {
            const v = this.expr(b, f);
            return `${v.code}${total} += ${v.val};`;
          },
          this.quiet(b),
        );
        return this.into(f, `${total} = 0;${code}`, `H.checkSum(${total})`);
      }
      case 'any':
      case 'all': {
        const wanted = e.name === 'any';
        const found = f.temp();
        const code = this.loopOver(
          f,
          a,
          () => {
            const v = this.expr(b, f);
            return `${v.code}if (${wanted ? holds(v) : fails(v)}) {${found} = ${wanted}; break;}`;
          },
          this.quiet(b),
        );
        return { code: `${found} = ${!wanted};${code}`, val: found, fixed: true, truth: true };
      }
      case 'lowest':
      case 'highest': {
        const found = f.temp();
        const best = f.temp();
        const cmp = e.name === 'highest' ? '>' : '<';
        const code = this.loopOver(
          f,
          a,
          (x) => {
            const v = this.expr(b, f);
            const n = f.temp();
            return `${v.code}${n} = ${v.val}; if (${found} === null || ${n} ${cmp} ${best}) {${found} = ${x}; ${best} = ${n};}`;
          },
          this.quiet(b),
        );
        return { code: `${found} = null; ${best} = 0;${code}`, val: found, fixed: true };
      }
      default:
        throw new Error(`internal: the built-in ${e.name} is not generated`);
    }
  }

  /**
   * A function of the pack: its context taken as the interpreter takes it, its arguments evaluated
   * into it. A small one is given inline (`inlinable`), its locals in temporaries: its context
   * would differ from the caller's only in them, in `it` (none but inside its loops) and in
   * `value` (none), and it spends the same steps; a context taken and given back for each call
   * cost more than a small function's body.
   */
  private fnCall(e: Extract<Expr, { op: 'fn' | 'pipeline' }>, f: Fn): Out {
    const def = this.hooks.fn(e.name);
    if (def !== undefined && inlinable(def.body)) return this.inlined(e, def, f);
    const fn = this.ref({ name: e.name, code: undefined });
    const fc = f.temp();
    const code = f.temp();
    let out = `H.spend(); ${code} = ${fn}.code ??= c.prog.fns[${this.ref(e.name)}]; ${fc} = H.exprCtx(${code}.free, ${code}.slots, c, c.self, c.holder, null);`;
    e.args.forEach((a, i) => {
      const x = this.expr(a, f);
      out += `${x.code}${fc}.env[${index(i)}] = ${x.val};`;
    });
    const v = f.temp();
    return { code: `${out}${v} = ${code}.body(${fc}); ${code}.free.push(${fc});`, val: v, fixed: true };
  }

  private inlined(e: Extract<Expr, { op: 'fn' | 'pipeline' }>, def: FnDef, f: Fn): Out {
    const locals = Array.from({ length: Math.max(def.slots, e.args.length) }, () => f.temp());
    // Its step counted with the loop's inside a quiet loop (`Fn.owed`).
    let out = f.owed === null ? 'H.spend();' : `${f.owed}++;`;
    e.args.forEach((a, i) => {
      const x = this.expr(a, f);
      out += `${x.code}${locals[i]} = ${x.val};`;
      // An element walked along is still one as the function's argument: its locals are not written again.
      const walk = f.walks.get(x.val);
      if (walk !== undefined) f.walks.set(locals[i], walk);
      if (f.strings.has(x.val)) f.strings.add(locals[i]);
    });
    for (let i = e.args.length; i < locals.length; i++) out += `${locals[i]} = null;`;
    const outer = { it: f.it, locals: f.locals };
    f.it = 'null';
    f.locals = locals;
    const body = this.expr(def.body, f);
    f.it = outer.it;
    f.locals = outer.locals;
    return { ...this.into(f, `${out}${body.code}`, body.val), truth: body.truth };
  }

  private pipelineCall(e: Extract<Expr, { op: 'fn' | 'pipeline' }>, f: Fn): Out {
    const p = f.temp();
    const pc = f.temp();
    let out = `${p} = c.prog.pipelines[${this.ref(e.name)}]; ${pc} = H.exprCtx(${p}.free, ${p}.slots, c, c.self, c.holder, null);`;
    e.args.forEach((a, i) => {
      const x = this.expr(a, f);
      out += `${x.code}${pc}.env[${index(i)}] = ${x.val};`;
    });
    return this.into(f, out, `H.pipelineWith(${this.ref(e.name)}, ${p}, ${pc}, ${index(e.args.length)}, c)`);
  }
}
