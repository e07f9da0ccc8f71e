/** A compiler message, in the spirit of Elm and Rust: what is wrong, where, why, and what to write instead. */
export interface Diagnostic {
  /** Stable code, e.g. `RB0203`: one message shape each, listed in compiler/codes.ts and documented in docs/diagnostics.md. */
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

/**
 * The author's line with carets under a span, as compilers print it; every report that points into
 * a file (diagnostics, scenario failures) renders it here.
 */
export function caretLines(line: number, column: number, width: number, src: string): string[] {
  const gutter = ' '.repeat(String(line).length);
  return [`${gutter} |`, `${line} | ${src}`, `${gutter} | ${' '.repeat(Math.max(0, column - 1))}${'^'.repeat(Math.max(1, width))}`];
}

/** Renders a diagnostic with the author's line and a caret under the span. */
export function formatDiagnostic(d: Diagnostic, fileText?: string): string {
  const head = `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${d.message}`;
  const lines = [head];
  if (fileText !== undefined) {
    // Without the byte order mark, which the columns do not count (compiler/source.ts).
    const src = (fileText.split('\n')[d.line - 1] ?? '').replace(/^\ufeff/, '');
    const width = d.endLine === d.line ? d.endColumn - d.column : src.length - d.column + 1;
    lines.push(...caretLines(d.line, d.column, width, src));
  }
  if (d.hint) lines.push(`  hint: ${d.hint}`);
  return lines.join('\n');
}
