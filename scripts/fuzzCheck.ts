import { compile } from '../compiler/index.ts';
import { LineIndex } from '../compiler/source.ts';
import { fuzzCase, type FuzzCase } from './fuzzCases.ts';

export interface CaseResult {
  n: number;
  diagnostics: number;
  /** What went wrong, when something did: a throw, an RB9000, a diagnostic that points nowhere. */
  problem?: string;
  how?: string[];
}

/**
 * Compiles case `n` and checks what the compiler promises of any input: it does not throw, it
 * reports no internal error (RB9000), and every diagnostic points into a real file at a real line
 * and column.
 */
export function checkCase(seed: number, n: number): CaseResult {
  return checkInput(fuzzCase(seed, n), n);
}

/** The same checks on a case kept as its files: a case number names other files once the packs it is made from change. */
export function checkInput(c: FuzzCase, n: number): CaseResult {
  let diagnostics;
  try {
    diagnostics = compile(c.files, { dependencies: c.dependencies }).diagnostics;
  } catch (e) {
    return { n, diagnostics: 0, problem: `compile threw: ${(e as Error).stack ?? e}`, how: c.how };
  }
  const own = new Map(c.files.map((f) => [f.path, f.text]));
  const indexes = new Map<string, { idx: LineIndex; lines: string[] }>();
  for (const d of diagnostics) {
    const where = `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`;
    if (d.code === 'RB9000') return { n, diagnostics: diagnostics.length, problem: where, how: c.how };
    const [dep, ...rest] = d.file.split(':');
    const text = own.get(d.file) ?? (rest.length ? c.dependencies[dep]?.find((f) => f.path === rest.join(':'))?.text : undefined) ?? (d.file === 'pack.yaml' ? '' : undefined);
    if (text === undefined) return { n, diagnostics: diagnostics.length, problem: `a diagnostic in a file the pack does not have: ${where}`, how: c.how };
    if (!(d.offset >= 0 && d.endOffset >= d.offset && d.endOffset <= text.length + 1)) return { n, diagnostics: diagnostics.length, problem: `a diagnostic outside its file (offsets ${d.offset}–${d.endOffset} of ${text.length}): ${where}`, how: c.how };
    let index = indexes.get(d.file);
    if (!index) indexes.set(d.file, (index = { idx: new LineIndex(text), lines: text.split('\n') }));
    const { idx, lines } = index;
    const s = idx.position(d.offset);
    const valid = (line: number, col: number) => Number.isInteger(line) && Number.isInteger(col) && line >= 1 && line <= lines.length && col >= 1 && col <= lines[line - 1].length + 2;
    if (!valid(d.line, d.column) || !valid(d.endLine, d.endColumn) || s.line !== d.line || s.column !== d.column) return { n, diagnostics: diagnostics.length, problem: `a diagnostic at no valid line and column: ${where}`, how: c.how };
    if (!d.message || !/^RB\d{4}$/.test(d.code)) return { n, diagnostics: diagnostics.length, problem: `a diagnostic without a code or message: ${where}`, how: c.how };
  }
  return { n, diagnostics: diagnostics.length };
}
