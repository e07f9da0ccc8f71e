/**
 * Walking the syntax tree: every sub-expression of an expression, every statement of a block, every
 * expression of a declaration. The one place that knows which node holds which children, so a pass
 * that looks for something (a call, an `emit`, randomness) never walks the tree by reflection.
 */
import type * as A from './ast.ts';

export interface WalkOptions {
  /** Also the expressions in a text's `{…}` holes (labels, logs, prompts); left out by default: they say nothing about the rule. */
  holes?: boolean;
}

/** Every sub-expression, `e` first. */
export function walkExpr(e: A.Expr, f: (e: A.Expr) => void, options: WalkOptions = {}): void {
  walk(e, f, options.holes === true);
}

/** No closure per node: a cold compile walks every declaration of the pack. */
function walk(e: A.Expr, f: (e: A.Expr) => void, holes: boolean): void {
  f(e);
  switch (e.kind) {
    case 'field':
      return walk(e.target, f, holes);
    case 'call':
      for (const a of e.args) walk(a, f, holes);
      return;
    case 'unary':
      return walk(e.operand, f, holes);
    case 'binary':
      walk(e.left, f, holes);
      return walk(e.right, f, holes);
    case 'if':
      walk(e.cond, f, holes);
      walk(e.then, f, holes);
      return walk(e.else, f, holes);
    case 'where':
      walk(e.source, f, holes);
      return walk(e.cond, f, holes);
    case 'list':
      for (const x of e.items) walk(x, f, holes);
      return;
    case 'range':
      walk(e.from, f, holes);
      return walk(e.to, f, holes);
    case 'string':
      if (holes) for (const p of e.parts) if (typeof p !== 'string') walk(p, f, holes);
      return;
    case 'number':
    case 'bool':
    case 'none':
    case 'name':
      return;
  }
}

/** The blocks nested directly in a statement. */
export function stmtBlocks(s: A.Stmt): A.Block[] {
  switch (s.kind) {
    case 'if':
      return s.else ? [s.then, s.else] : [s.then];
    case 'for':
    case 'repeat':
    case 'loop':
    case 'choose':
    case 'turn':
    case 'resolving':
      return [s.body];
    default:
      return [];
  }
}

/** The expressions a statement holds itself (not those of its nested blocks). */
export function stmtExprs(s: A.Stmt): A.Expr[] {
  switch (s.kind) {
    case 'let':
      return [s.value];
    case 'assign':
      return [s.value, s.target];
    case 'if':
      return [s.cond];
    case 'for':
      return [s.source];
    case 'repeat':
      return [s.times];
    case 'loop':
      return [s.max];
    case 'require':
      return s.reason ? [s.cond, s.reason] : [s.cond];
    case 'choose':
      return [s.source, ...(s.by ? [s.by] : []), ...(s.prompt ? [s.prompt] : [])];
    case 'offer':
      return [s.player];
    case 'emit':
      return s.args;
    case 'log':
      return [s.text];
    case 'turn':
      return [s.player];
    case 'shuffle':
      return [s.target];
    case 'draw':
      return [s.from];
    case 'put':
      return [s.value, s.into];
    case 'remove':
      return [s.value, s.from];
    case 'call':
      return [s.call];
    case 'expr':
      return s.assigned ? [s.expr, s.assigned.value] : [s.expr];
    case 'reach':
      return [s.target];
    case 'break':
    case 'finish':
    case 'resolving':
      return [];
  }
}

/** Every statement, nested blocks (`if`, loops, `choose`, `turn`, `resolving` …) included. */
export function walkStmts(stmts: A.Stmt[], f: (s: A.Stmt) => void): void {
  for (const s of stmts) {
    f(s);
    for (const b of stmtBlocks(s)) walkStmts(b.stmts, f);
  }
}

/** What a declaration holds: its own expressions (parameter domains, conditions, values) and its body block. */
export function declParts(d: A.Decl): { exprs: A.Expr[]; body?: A.Block } {
  const domains = 'params' in d ? d.params.flatMap((p) => (p.domain ? [p.domain] : [])) : [];
  switch (d.kind) {
    case 'event':
      return { exprs: domains };
    case 'fn':
      return { exprs: [...domains, d.body] };
    case 'pipeline':
      return { exprs: [...domains, d.body, ...(d.min ? [d.min] : []), ...(d.max ? [d.max] : [])] };
    case 'proc':
    case 'check':
      return { exprs: domains, body: d.body };
    case 'action':
      return { exprs: [...domains, ...(d.label ? [d.label] : [])], body: d.body };
    case 'on':
      return { exprs: d.when ? [d.when] : [], body: d.body };
    case 'modify':
      return { exprs: [...(d.when ? [d.when] : []), d.value] };
    case 'invariant':
      return { exprs: [d.message, d.cond] };
    case 'setup':
    case 'flow':
      return { exprs: [], body: d.body };
    case 'guard':
      return { exprs: [...domains, ...(d.when ? [d.when] : [])], body: d.body };
  }
}

/** Every statement and every expression of a declaration, nested ones included. */
export function walkDecl(d: A.Decl, visit: { stmt?: (s: A.Stmt) => void; expr?: (e: A.Expr) => void }, options: WalkOptions = {}): void {
  const { exprs, body } = declParts(d);
  const expr = visit.expr;
  if (expr) for (const e of exprs) walkExpr(e, expr, options);
  if (body) {
    walkStmts(body.stmts, (s) => {
      visit.stmt?.(s);
      if (expr) for (const e of stmtExprs(s)) walkExpr(e, expr, options);
    });
  }
}
