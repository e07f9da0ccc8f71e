import type { Unit } from './emit.ts';

/**
 * A unit's functions, made by one `new Function` over its source (`unitSource(unit)`). The source is the
 * emitter's own words and numbers (`emit.ts`); what came from the pack is passed in as the table
 * `T`, and the runtime's helpers (budgets, records, lists) as `H`, so it reaches the code only as values.
 */
export function instantiate<F>(unit: Unit, source: string, helpers: object): F[] {
  return new Function('T', 'H', source)(unit.values, helpers) as F[];
}

/** The whole text `instantiate` runs: what a test reads to see that no text of the pack is in it. */
export function unitSource(unit: Unit): string {
  const late = new Set(unit.late.map((l) => l.entry));
  const lines = ['"use strict";'];
  for (let i = 0; i < unit.values.length; i++) lines.push(`${late.has(i) ? 'let' : 'const'} k${i} = T[${i}];`);
  for (let i = 0; i < unit.functions.length; i++) lines.push(`const f${i} = ${unit.functions[i]};`);
  for (const l of unit.late) lines.push(`k${l.entry} = H.builtin(${l.builtin}, [${l.args.map((a) => `f${a}`).join(', ')}]);`);
  lines.push(`return [${unit.functions.map((_, i) => `f${i}`).join(', ')}];`);
  return lines.join('\n');
}
