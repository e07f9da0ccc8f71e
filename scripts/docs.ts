/**
 * Regenerates the table of built-in functions in docs/language.md from compiler/builtins.ts, the
 * one table the checker, the lowering, completion and hover read too. Run with `npm run docs`;
 * test/docs.test.ts fails when the table in the document is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtins, type Builtin } from '../compiler/builtins.ts';

export const DOC_PATH = 'docs/language.md';
export const START = '<!-- builtins:start -->';
export const END = '<!-- builtins:end -->';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const code = (s: string) => `\`${cell(s)}\``;

function notes(b: Builtin): string {
  const out: string[] = [];
  if (b.random) out.push('random: effects only');
  if (b.graph) out.push("needs the kind's `graph`");
  if (b.perElement.length) out.push('`it` is each element');
  return out.join('; ');
}

/** The generated section, markers excluded. */
export function builtinsTable(): string {
  const rows = builtins.map((b) => `| ${code(b.signature)} | ${cell(b.doc)} | ${code(b.example)} | ${notes(b)} |`);
  return [
    '<!-- Generated from compiler/builtins.ts by `npm run docs`; edit that table, not this one. -->',
    '',
    '| signature | what it gives | example | notes |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The document with its built-in section replaced by the current table. */
export function withBuiltins(doc: string): string {
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${DOC_PATH} needs the markers ${START} and ${END}, in that order`);
  return `${doc.slice(0, a + START.length)}\n${builtinsTable()}\n${doc.slice(b)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const before = readFileSync(DOC_PATH, 'utf8');
  const after = withBuiltins(before);
  if (after !== before) writeFileSync(DOC_PATH, after);
  console.log(after === before ? `${DOC_PATH}: the built-in table is up to date` : `${DOC_PATH}: the built-in table was rewritten (${builtins.length} functions)`);
}
