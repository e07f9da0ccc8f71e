import { DRAWING_BUILTINS } from './builtins.ts';
import type { Expr } from './compiled.ts';

type Where = Extract<Expr, { op: 'where' }>;

/**
 * The `where` of `first(xs where …)` when both engines may stop at its first match instead of
 * filtering the whole list: the other elements' conditions would be evaluated for nothing. Not for
 * a `where` naming a variable (its last value stays in the locals, which a suspended frame keeps),
 * nor for a condition that may change the state or call a rule that might (a function, a
 * pipeline), so the state after it is the same either way; only the steps it counts are fewer.
 */
export function firstMatchOf(e: Extract<Expr, { op: 'builtin' }>): Where | undefined {
  const w = e.args[0];
  if (e.name !== 'first' || w?.op !== 'where' || w.slot >= 0 || !calm(w.cond)) return undefined;
  return w;
}

function calm(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(calm);
  if (node === null || typeof node !== 'object') return true;
  const e = node as { op?: unknown; name?: unknown };
  if (e.op === 'fn' || e.op === 'pipeline' || (e.op === 'builtin' && DRAWING_BUILTINS.has(e.name as string))) return false;
  return Object.values(node).every(calm);
}
