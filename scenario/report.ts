import type { Failure, ScenarioResult } from './format.ts';
import { show } from './values.ts';
import { caretLines } from '../compiler/diagnostic.ts';

/**
 * A failure as a compiler would print it: `file:line:col: message`, the author's line with a caret
 * under the key, then what was expected, what was found, the rule's reason and a hint.
 */
export function formatFailure(f: Failure, indent = '  '): string {
  const out = [`${f.at.file}:${f.at.line}:${f.at.column}: ${f.message}`];
  if (f.excerpt !== undefined) {
    out.push(...caretLines(f.at.line, f.at.column, f.at.length, f.excerpt));
  }
  if (f.expected !== undefined) out.push(`expected: ${show(f.expected)}`);
  if (f.found !== undefined) out.push(`found:    ${show(f.found)}`);
  if (f.reason !== undefined && f.reason !== f.found) out.push(`reason:   ${f.reason}`);
  if (f.hint) out.push(`hint:     ${f.hint}`);
  return out.map((l) => indent + l).join('\n');
}

/** One line per scenario, and for a failed one every failure under it. */
export function formatResult(r: ScenarioResult): string {
  if (r.passed) return `PASS ${r.scenario}`;
  return [`FAIL ${r.scenario}  (${r.file}:${r.line})`, ...r.failures.map((f) => formatFailure(f))].join('\n');
}

export function summarize(results: ScenarioResult[]): { passed: number; failed: number; line: string } {
  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed;
  return { passed, failed, line: `${passed} passed, ${failed} failed` };
}

/** Every result, then the closing `N passed, N failed` line. */
export function formatResults(results: ScenarioResult[]): string {
  return [...results.map(formatResult), '', summarize(results).line].join('\n');
}
