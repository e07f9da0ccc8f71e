/** Walking the syntax tree: every sub-expression of an expression, every statement of a block. */
import type * as A from './ast.ts';

/** Every sub-expression, strings' holes excluded (labels and logs say nothing about the rule). */
export function walkExpr(e: A.Expr, f: (e: A.Expr) => void): void {
  f(e);
  switch (e.kind) {
    case 'field':
      return walkExpr(e.target, f);
    case 'call':
      return e.args.forEach((a) => walkExpr(a, f));
    case 'unary':
      return walkExpr(e.operand, f);
    case 'binary':
      walkExpr(e.left, f);
      return walkExpr(e.right, f);
    case 'if':
      walkExpr(e.cond, f);
      walkExpr(e.then, f);
      return walkExpr(e.else, f);
    case 'where':
      walkExpr(e.source, f);
      return walkExpr(e.cond, f);
    case 'list':
      return e.items.forEach((x) => walkExpr(x, f));
    case 'range':
      walkExpr(e.from, f);
      return walkExpr(e.to, f);
    default:
      return;
  }
}

/** Every statement, nested blocks (`if`, loops, `choose`, `turn`, `resolving` …) included. */
export function walkStmts(stmts: A.Stmt[], f: (s: A.Stmt) => void): void {
  for (const s of stmts) {
    f(s);
    const sub = s as unknown as { body?: A.Block; then?: A.Block; else?: A.Block };
    if (sub.body?.stmts) walkStmts(sub.body.stmts, f);
    if (sub.then?.stmts) walkStmts(sub.then.stmts, f);
    if (sub.else?.stmts) walkStmts(sub.else.stmts, f);
  }
}

