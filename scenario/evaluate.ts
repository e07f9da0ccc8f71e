import type * as A from '../dsl/ast.ts';
import { parseExpression } from '../dsl/parser.ts';
import type { CompiledPack } from '../runtime/compiled.ts';
import { evaluate } from '../runtime/index.ts';
import type { GameState, Value } from '../runtime/types.ts';
import type { Failure, Plain, Where } from './format.ts';
import { show } from './values.ts';

type Fail = (at: Where, message: string, extra?: Partial<Failure>) => void;

const comparisons = new Set(['==', '!=', '<', '<=', '>', '>=']);

/**
 * An `eval:` check: the expression, compiled by the pack's own checker, must be true in `state`.
 * `at` is where its text is in the scenario file, so a problem in it points at the author's
 * characters. A false comparison shows what each side was.
 */
export function checkEval(pack: CompiledPack, state: GameState, source: string, at: Where, when: string, fail: Fail): void {
  if (!pack.expression) {
    fail(at, '`eval` needs a pack compiled by rulebook’s compiler', { hint: 'compile the pack with `compile()` from compiler/index.ts' });
    return;
  }
  const compiled = pack.expression(source);
  if (!compiled.ok) {
    for (const p of compiled.problems) {
      const inside: Where = { ...at, column: at.column + p.start, offset: at.offset + p.start, length: Math.max(1, p.end - p.start) };
      fail(inside, `\`eval\`: ${p.message} (${p.code})`, { hint: p.hint });
    }
    return;
  }
  if (compiled.type !== 'bool') {
    const value = run(state, compiled);
    fail(at, `\`eval\` checks a condition, but \`${source}\` is ${compiled.type === 'error' ? 'not a value' : `a ${compiled.type}`}`, {
      found: 'error' in value ? value.error : show(value.value as Plain),
      hint: `compare it with what it should be, e.g. \`${source} == ${'value' in value ? show(value.value as Plain) : '…'}\``,
    });
    return;
  }
  const r = run(state, compiled);
  if ('error' in r) {
    fail(at, `\`eval\`: \`${source}\` could not be computed ${when}`, { reason: r.error });
    return;
  }
  if (r.value === true) return;
  fail(at, `\`eval\`: \`${source}\` is false ${when}`, { expected: true, found: false, hint: sides(pack, state, source) });
}

/** For a comparison, the value of each side: what the author needs to see to fix the test or the rules. */
function sides(pack: CompiledPack, state: GameState, source: string): string | undefined {
  const tree = parseExpression(source).value;
  if (tree?.kind !== 'binary' || !comparisons.has((tree as A.BinaryExpr).op)) return undefined;
  const { left, right } = tree as A.BinaryExpr;
  const shown = [left, right].map((side) => {
    const text = source.slice(side.span.start, side.span.end);
    const compiled = pack.expression!(text);
    if (!compiled.ok) return undefined;
    const r = run(state, compiled);
    return 'value' in r && !(side.kind === 'number' || side.kind === 'none' || side.kind === 'bool') ? `\`${text}\` is ${show(r.value as Plain)}` : undefined;
  });
  const said = shown.filter((x) => x !== undefined);
  return said.length ? said.join('; ') : undefined;
}

function run(state: GameState, compiled: Parameters<typeof evaluate>[1]): { value: Value } | { error: string } {
  try {
    return { value: evaluate(state, compiled) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
