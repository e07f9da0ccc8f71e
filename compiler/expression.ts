import type * as A from '../dsl/ast.ts';
import { parseExpression } from '../dsl/parser.ts';
import type { CompiledExpression, Expr } from '../runtime/compiled.ts';
import { checkExpression, type Checked } from './check.ts';
import type { RulesUnit } from './declare.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import * as Ty from './types.ts';

/**
 * One expression written outside the pack (a scenario's `eval: conquestCost(large1a_06) == 3`):
 * parsed, checked against the pack's declarations as a function body would be (no effects, no
 * card), then lowered by `lowerExpr`. Problems carry offsets into `source`.
 */
export function compileExpression(c: Checked, source: string, lowerExpr: (e: A.Expr) => Expr): CompiledExpression {
  const parsed = parseExpression(source);
  if (!parsed.value || parsed.errors.length) {
    return { ok: false, problems: parsed.errors.map((e) => ({ code: 'RB0301', message: e.message, start: e.span.start, end: e.span.end })) };
  }
  const unit: RulesUnit = { program: { decls: [] }, fragment: { file: '<expression>', text: source, toFile: (offset) => offset } };
  const found: DiagnosticInput[] = [];
  const { type, slots } = checkExpression(c, unit, parsed.value, (d) => found.push(d));
  const errors = found.filter((d) => (d.severity ?? 'error') === 'error');
  if (errors.length) return { ok: false, problems: errors.map((d) => ({ code: d.code, message: d.message, hint: d.hint, start: d.at.start, end: d.at.end })) };
  return { ok: true, code: lowerExpr(parsed.value), slots, type: Ty.show(type) };
}
