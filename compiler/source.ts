import { LRUCache } from 'lru-cache';

/** A file of a pack as the author wrote it; `path` is relative to the pack folder. */
export interface SourceFile {
  path: string;
  text: string;
  /** Left unread by whoever gathered the files: a file too large (RB0007), a link leaving the pack or a loop (RB0008). */
  refused?: { code: 'RB0007' | 'RB0008'; message: string; hint?: string };
}

/**
 * The line index of a text, kept for the texts used last: a diagnostic is placed by its file's
 * index, and a hostile file of 20,000 diagnostics indexed its 20,000 lines for each of them (9 s).
 */
export function lineIndexOf(text: string): LineIndex {
  let idx = lineIndexes.get(text);
  if (!idx) {
    idx = new LineIndex(text);
    lineIndexes.set(text, idx);
  }
  return idx;
}

const lineIndexes = new LRUCache<string, LineIndex>({ max: 16 });

/** Turns offsets into 1-based line and column, for one file. */
export class LineIndex {
  private readonly starts: number[] = [0];
  /**
   * A byte order mark the text starts with: offsets count it, but no editor shows it (Monaco and
   * VS Code take it off the text), so a column on the first line past it is one less.
   */
  private readonly bom: boolean;

  constructor(text: string) {
    this.bom = text.charCodeAt(0) === 0xfeff;
    // By `indexOf`, not character by character: the lowering indexes every rules file of a pack.
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo] + (lo === 0 && this.bom && offset > 0 ? 0 : 1) };
  }
}

/**
 * A piece of rules text taken out of a YAML string, with the map back to the file: a position in
 * `text` becomes an offset in the YAML file, even inside an indented multi-line block.
 */
export interface Fragment {
  file: string;
  text: string;
  toFile(offset: number): number;
}
