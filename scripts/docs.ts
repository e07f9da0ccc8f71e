/**
 * Regenerates what the docs say from the tables the compiler reads: the built-in functions, the
 * keywords and the special names in docs/language.md from compiler/builtins.ts and
 * dsl/language.ts, and docs/diagnostics.md from compiler/codes.ts with
 * an example of each code taken from the golden tests. Run with `npm run docs`; test/docs.test.ts
 * fails when a document is stale.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { builtins, type Builtin } from '../compiler/builtins.ts';
import { diagnosticCodes, type CodeInfo } from '../compiler/codes.ts';
import { clauseKeywords, declarations, specialNames, statements } from '../dsl/language.ts';

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
  return withSection(doc, START, END, builtinsTable());
}

export const NAMES_START = '<!-- names:start -->';
export const NAMES_END = '<!-- names:end -->';
export const KEYWORDS_START = '<!-- keywords:start -->';
export const KEYWORDS_END = '<!-- keywords:end -->';

/** The special names, from dsl/language.ts. */
export function namesTable(): string {
  return ['<!-- Generated from dsl/language.ts by `npm run docs`. -->', '', '| name | means |', '| --- | --- |', ...specialNames.map((n) => `| \`${n.name}\` | ${cell(n.doc)} |`)].join('\n');
}

/** Every keyword and what it does, from dsl/language.ts. */
export function keywordsTable(): string {
  const row = (k: string, what: string, doc: string) => `| \`${k}\` | ${what} | ${cell(doc)} |`;
  return [
    '<!-- Generated from dsl/language.ts by `npm run docs`; the editor’s completion and hover read the same table. -->',
    '',
    '| keyword | starts | what it does |',
    '| --- | --- | --- |',
    ...declarations.map((d) => row(d.keyword, 'a declaration', d.doc)),
    ...statements.map((st) => row(st.keyword, 'a statement', st.doc)),
    ...clauseKeywords.map((c) => row(c.keyword, '', c.doc)),
  ].join('\n');
}

function withSection(doc: string, start: string, end: string, content: string): string {
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${DOC_PATH} needs the markers ${start} and ${end}, in that order`);
  return `${doc.slice(0, a + start.length)}\n${content}\n${doc.slice(b)}`;
}

/** docs/language.md with every generated section (built-ins, special names, keywords) rewritten. */
export function withGenerated(doc: string): string {
  return withSection(withSection(withBuiltins(doc), NAMES_START, NAMES_END, namesTable()), KEYWORDS_START, KEYWORDS_END, keywordsTable());
}

export const DIAGNOSTICS_PATH = 'docs/diagnostics.md';
export const GOLDEN_DIR = 'test/golden';

/** A diagnostic as a golden test prints it, and the edit of the pack that caused it. */
export interface Example {
  /** The golden case, `test/golden/<name>.expected.txt`. */
  name: string;
  edit: string;
  text: string;
}

/** The first example of each code in the golden files (in file name order). */
export function goldenExamples(dir = GOLDEN_DIR): Map<string, Example> {
  const out = new Map<string, Example>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.expected.txt')).sort()) {
    const text = readFileSync(`${dir}/${file}`, 'utf8');
    const edit = text.match(/^# (.*)$/m)?.[1] ?? '';
    const blocks = text.split('\n\n').slice(1);
    for (const block of blocks) {
      const code = block.match(/^\S+: (?:error|warning) (RB\d{4}): /)?.[1];
      if (code && !out.has(code)) out.set(code, { name: file.replace(/\.expected\.txt$/, ''), edit, text: block.trimEnd() });
    }
  }
  return out;
}

function codeSection(c: CodeInfo, example: Example | undefined): string {
  const lines = [`## ${c.code}: ${c.title}`, '', `${c.severity === 'error' ? 'Error' : 'Warning'}. The message reads:`, '', `> ${c.message}`, '', c.explain, '', `**Fix:** ${c.fix}`, ''];
  if (example) lines.push(`Example (\`${GOLDEN_DIR}/${example.name}\`: ${example.edit}):`, '', '```text', example.text, '```', '');
  else if (c.noExample) lines.push(`No example: ${c.noExample}.`, '');
  return lines.join('\n');
}

/** docs/diagnostics.md as it should read. */
export function diagnosticsDoc(examples = goldenExamples()): string {
  const index = diagnosticCodes.map((c) => `| [${c.code}](#${c.code.toLowerCase()}-${c.title.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')}) | ${c.severity} | ${cell(c.title)} |`);
  return [
    '# Diagnostics',
    '',
    '<!-- Generated from compiler/codes.ts and the golden tests (test/golden/) by `npm run docs`; edit those, not this file. -->',
    '',
    'Every message of the compiler has a code, a file, a line and a column, and usually a hint. Each code',
    'has one message (‹…› marks what varies), and below each is an example from the golden tests:',
    'a small edit of the Small World pack and what the compiler says about it.',
    '',
    'Codes by stage: RB00xx reading the pack’s files, RB01xx the shape of the YAML, RB02xx declarations',
    'in YAML, RB03xx the syntax of the rules, RB04xx collecting the rules, RB05xx checking them.',
    '',
    '| code | severity | what |',
    '| --- | --- | --- |',
    ...index,
    '',
    ...diagnosticCodes.map((c) => codeSection(c, examples.get(c.code))),
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const before = readFileSync(DOC_PATH, 'utf8');
  const after = withGenerated(before);
  if (after !== before) writeFileSync(DOC_PATH, after);
  console.log(after === before ? `${DOC_PATH}: up to date` : `${DOC_PATH}: the generated tables were rewritten`);
  let old = '';
  try {
    old = readFileSync(DIAGNOSTICS_PATH, 'utf8');
  } catch {
    // First run: the document does not exist yet.
  }
  const diagnostics = diagnosticsDoc();
  if (diagnostics !== old) writeFileSync(DIAGNOSTICS_PATH, diagnostics);
  console.log(diagnostics === old ? `${DIAGNOSTICS_PATH}: up to date` : `${DIAGNOSTICS_PATH}: rewritten (${diagnosticCodes.length} codes)`);
}
