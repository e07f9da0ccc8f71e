/** A compiler message, in the spirit of Elm and Rust: what is wrong, where, why, and what to write instead. */
export interface Diagnostic {
  /** Stable code, e.g. `RB0203`; documented in docs/diagnostics.md. */
  code: string;
  severity: 'error' | 'warning';
  message: string;
  /** Path of the pack file, relative to the pack folder (`races/orcs.yaml`). */
  file: string;
  /** 1-based line and column of the span's start in that file; `end*` of its end. */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** 0-based offsets into the file text. */
  offset: number;
  endOffset: number;
  /** What to write instead, when we know. */
  hint?: string;
  /** A replacement for the span that an editor may apply; `safe` fixes may be applied without review. */
  fix?: { replacement: string; safe: boolean };
}

/** Where a diagnostic points before line and column are known: a file and offsets into it. */
export interface FileSpan {
  file: string;
  start: number;
  end: number;
}

export interface DiagnosticInput {
  code: string;
  severity?: 'error' | 'warning';
  message: string;
  at: FileSpan;
  hint?: string;
  fix?: { replacement: string; safe: boolean };
}

/** Renders a diagnostic with the author's line and a caret under the span. */
export function formatDiagnostic(d: Diagnostic, fileText?: string): string {
  const head = `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`;
  const lines = [head];
  if (fileText !== undefined) {
    const src = fileText.split('\n')[d.line - 1] ?? '';
    const width = d.endLine === d.line ? Math.max(1, d.endColumn - d.column) : Math.max(1, src.length - d.column + 1);
    const gutter = String(d.line).length;
    lines.push(`${' '.repeat(gutter)} |`);
    lines.push(`${d.line} | ${src}`);
    lines.push(`${' '.repeat(gutter)} | ${' '.repeat(d.column - 1)}${'^'.repeat(width)}`);
  }
  if (d.hint) lines.push(`  hint: ${d.hint}`);
  return lines.join('\n');
}
