import type * as A from './ast.ts';

/**
 * The canonical form of rules text: what `parse` reads back into the same tree (spans aside).
 * Two-space indentation, one statement per line, and only the parentheses that precedence needs.
 *
 * Binding strength, loosest first (the parser's grammar, `dsl/parser.ts`):
 *   if-then-else < where < or < and < not < comparison/in < range < + - < * / % < unary - < postfix.
 * Comments are not part of the tree and are not printed.
 *
 * Two shapes have no text that reads back as the same tree, and the parser never builds them:
 * a text part with a line break (a quoted text cannot span lines), and a statement that starts with
 * `(`, such as `(a + b).x = 1` (it would continue the line before as a call).
 */

// ─── Precedence ─────────────────────────────────────────────────────────────

/** Levels: an operand printed where at least `min` is needed gets parentheses when it binds looser. */
const P = { Expr: 0, Where: 1, Or: 2, And: 3, Not: 4, Compare: 5, Range: 6, Add: 7, Mul: 8, Unary: 9, Postfix: 10 } as const;
type Level = number;

function precedence(e: A.Expr): Level {
  switch (e.kind) {
    case 'if':
      return P.Expr;
    case 'where':
      return P.Where;
    case 'binary':
      switch (e.op) {
        case 'or':
          return P.Or;
        case 'and':
          return P.And;
        case '+':
        case '-':
          return P.Add;
        case '*':
        case '/':
        case '%':
          return P.Mul;
        default:
          return P.Compare;
      }
    case 'unary':
      return e.op === 'not' ? P.Not : P.Unary;
    case 'range':
      return P.Range;
    default:
      return P.Postfix;
  }
}

// ─── Expressions ────────────────────────────────────────────────────────────

/** An expression in canonical form. */
export function printExpr(e: A.Expr): string {
  return expr(e, P.Expr);
}

function expr(e: A.Expr, min: Level): string {
  const text = bare(e);
  return precedence(e) < min ? `(${text})` : text;
}

function bare(e: A.Expr): string {
  switch (e.kind) {
    case 'number':
      return printNumber(e.value);
    case 'string':
      return printString(e);
    case 'bool':
      return e.value ? 'true' : 'false';
    case 'none':
      return 'none';
    case 'name':
      return e.name;
    case 'field':
      return `${expr(e.target, P.Postfix)}.${e.field}`;
    case 'call':
      return `${e.callee}(${e.args.map((a) => expr(a, P.Expr)).join(', ')})`;
    case 'unary':
      return e.op === 'not' ? `not ${expr(e.operand, P.Not)}` : `-${expr(e.operand, P.Unary)}`;
    case 'binary': {
      const p = precedence(e);
      // Comparisons do not chain: both sides sit one level up. The others lean left.
      const left = p === P.Compare ? P.Range : p;
      const right = p === P.Compare ? P.Range : p + 1;
      return `${expr(e.left, left)} ${e.op} ${expr(e.right, right)}`;
    }
    case 'if':
      return `if ${expr(e.cond, P.Expr)} then ${expr(e.then, P.Expr)} else ${expr(e.else, P.Expr)}`;
    case 'where':
      return `${expr(e.source, P.Where)} where ${e.name ? `${e.name}: ` : ''}${expr(e.cond, P.Or)}`;
    case 'list':
      return `[${e.items.map((i) => expr(i, P.Expr)).join(', ')}]`;
    case 'range':
      return `${expr(e.from, P.Add)}..${expr(e.to, P.Add)}`;
  }
}

function printNumber(n: number): string {
  // The parser reads digits only; very large whole numbers must not come out as `1e+21`.
  return Number.isSafeInteger(n) || (Number.isInteger(n) && n >= 0) ? BigInt(n).toString() : String(n);
}

/** A quoted text: `"`, `\` and `{` are escaped; holes come back as `{expr}`. */
function printString(s: A.StringExpr): string {
  let out = '"';
  for (const part of s.parts) {
    if (typeof part === 'string') out += part.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\{/g, '{{');
    else out += `{${printExpr(part)}}`;
  }
  return `${out}"`;
}

// ─── Types ──────────────────────────────────────────────────────────────────

/** A type as written: `number`, `region?`, `list<race>`. */
export function printType(t: A.TypeRef): string {
  return `${t.name}${t.element ? `<${printType(t.element)}>` : ''}${t.optional ? '?' : ''}`;
}

// ─── Statements ─────────────────────────────────────────────────────────────

const INDENT = '  ';

/** A statement, indented by `depth` levels; blocks span several lines. */
export function printStmt(s: A.Stmt, depth = 0): string {
  const pad = INDENT.repeat(depth);
  return pad + stmt(s, depth);
}

function block(b: A.Block, depth: number): string {
  if (!b.stmts.length) return '{}';
  return `{\n${b.stmts.map((s) => printStmt(s, depth + 1)).join('\n')}\n${INDENT.repeat(depth)}}`;
}

function target(e: A.Expr): string {
  return expr(e, P.Postfix);
}

function stmt(s: A.Stmt, depth: number): string {
  switch (s.kind) {
    case 'let':
      return `let ${s.name} = ${printExpr(s.value)}`;
    case 'assign':
      return `${target(s.target)} ${s.op} ${printExpr(s.value)}`;
    case 'if': {
      let out = `if ${printExpr(s.cond)} ${block(s.then, depth)}`;
      if (s.else) {
        const only = s.else.stmts.length === 1 ? s.else.stmts[0] : undefined;
        out += only?.kind === 'if' ? ` else ${stmt(only, depth)}` : ` else ${block(s.else, depth)}`;
      }
      return out;
    }
    case 'for':
      return `for ${s.name} in ${printExpr(s.source)} ${block(s.body, depth)}`;
    case 'repeat':
      return `repeat ${printExpr(s.times)} ${block(s.body, depth)}`;
    case 'loop':
      return `loop max ${printExpr(s.max)} ${block(s.body, depth)}`;
    case 'break':
      return 'break';
    case 'finish':
      return 'finish';
    case 'require':
      return s.reason ? `require ${printExpr(s.cond)} else ${printString(s.reason)}` : `require ${printExpr(s.cond)}`;
    case 'choose': {
      const parts = ['choose'];
      if (s.optional) parts.push('optional');
      parts.push(s.name, 'in', printExpr(s.source));
      if (s.by) parts.push('by', expr(s.by, P.Add));
      if (s.prompt) parts.push(printString(s.prompt));
      parts.push(block(s.body, depth));
      return parts.join(' ');
    }
    case 'offer':
      return `offer ${expr(s.player, P.Add)}: ${s.actions.map((a) => a.name).join(', ')}`;
    case 'emit':
      return s.args.length ? `emit ${s.event}(${s.args.map(printExpr).join(', ')})` : `emit ${s.event}`;
    case 'log':
      return `log ${printString(s.text)}`;
    case 'turn':
      return `turn ${expr(s.player, P.Add)} ${block(s.body, depth)}`;
    case 'resolving':
      return `resolving ${block(s.body, depth)}`;
    case 'shuffle':
      return `shuffle ${target(s.target)}`;
    case 'draw':
      return `draw ${s.name} from ${s.end === 'bottom' ? 'bottom of ' : ''}${target(s.from)}`;
    case 'put':
      return `put ${expr(s.value, P.Add)} on ${s.end} of ${target(s.into)}`;
    case 'remove':
      return `remove ${expr(s.value, P.Add)} from ${target(s.from)}`;
    case 'call':
      return printExpr(s.call);
    case 'reach':
      return `reach ${target(s.target)}`;
    case 'expr':
      return s.assigned ? `${target(s.expr)} ${s.assigned.op} ${printExpr(s.assigned.value)}` : printExpr(s.expr);
  }
}

// ─── Declarations ───────────────────────────────────────────────────────────

function params(ps: A.Param[]): string {
  return `(${ps.map((p) => `${p.name}: ${printType(p.type)}${p.domain ? ` in ${expr(p.domain, P.Range)}` : ''}`).join(', ')})`;
}

function binds(bs: Array<{ name: string }>): string {
  return bs.length ? `(${bs.map((b) => b.name).join(', ')})` : '';
}

function roles(r: A.RoleList): string {
  return r.names.length ? ` while ${r.names.map((n) => n.name).join(', ')}` : '';
}

/** A declaration; bodies are indented below it. */
export function printDecl(d: A.Decl): string {
  return d.override ? `override ${decl(d)}` : decl(d);
}

function decl(d: A.Decl): string {
  switch (d.kind) {
    case 'event':
      return `event ${d.name}${d.params.length ? params(d.params) : ''}`;
    case 'fn':
      return `fn ${d.name}${params(d.params)}: ${printType(d.returns)} = ${printExpr(d.body)}`;
    case 'pipeline': {
      const min = d.min ? ` min ${expr(d.min, P.Add)}` : '';
      const max = d.max ? ` max ${expr(d.max, P.Add)}` : '';
      return `pipeline ${d.name}${params(d.params)}: ${printType(d.returns)}${min}${max} = ${printExpr(d.body)}`;
    }
    case 'proc':
      return `proc ${d.name}${params(d.params)} ${block(d.body, 0)}`;
    case 'check':
      return `check ${d.name}${params(d.params)} ${block(d.body, 0)}`;
    case 'action': {
      let head = `action ${d.name}${d.params.length ? params(d.params) : ''}`;
      if (d.label) head += ` ${printString(d.label)}`;
      if (d.limit) head += ` limit ${d.limit.times} per ${d.limit.per}`;
      if (d.with) head += ` with ${d.with.name}`;
      if (d.anytime) head += ' anytime';
      return `${head}${roles(d.roles)} ${block(d.body, 0)}`;
    }
    case 'on': {
      const when = d.when ? ` when ${printExpr(d.when)}` : '';
      return `on ${d.name}${binds(d.binds)}${when}${roles(d.roles)} ${block(d.body, 0)}`;
    }
    case 'modify': {
      const by = d.anyone ? ' by anyone' : '';
      const when = d.when ? ` when ${printExpr(d.when)}` : '';
      return `modify ${d.name}${binds(d.binds)}${by}${roles(d.roles)}${when} = ${printExpr(d.value)}`;
    }
    case 'setup':
      return `setup ${block(d.body, 0)}`;
    case 'flow':
      return `flow ${block(d.body, 0)}`;
    case 'guard':
      return `guard ${d.name}${params(d.params)}${d.fields.length ? ` of ${d.fields.map((f) => f.name).join(', ')}` : ''}${d.when ? ` when ${printExpr(d.when)}` : ''} ${block(d.body, 0)}`;
    case 'invariant':
      return `invariant ${printString(d.message)} = ${printExpr(d.cond)}`;
  }
}

/**
 * A whole rules text. Declarations are separated by a blank line, except runs of one-line
 * declarations of the same kind (a list of events, of small functions), which stay together.
 */
export function printProgram(p: A.Program): string {
  let out = '';
  let prev: { kind: string; oneLine: boolean } | undefined;
  for (const d of p.decls) {
    const text = printDecl(d);
    const oneLine = !text.includes('\n');
    if (prev) out += prev.oneLine && oneLine && prev.kind === d.kind ? '\n' : '\n\n';
    out += text;
    prev = { kind: d.kind, oneLine };
  }
  return out ? `${out}\n` : '';
}
