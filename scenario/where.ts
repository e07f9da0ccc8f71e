import type { Node as YamlNode } from 'yaml';
import { LineIndex } from '../compiler/source.ts';
import type { Where } from './format.ts';

/** Turns YAML node ranges into the author's line and column, for one file. */
export class Locator {
  private readonly index: LineIndex;
  private readonly lines: string[];

  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    this.index = new LineIndex(text);
    this.lines = text.split('\n');
  }

  at(start: number, end = start + 1): Where {
    const { line, column } = this.index.position(start);
    const lineText = this.lines[line - 1] ?? '';
    const room = Math.max(1, lineText.replace(/\r$/, '').length - column + 1);
    return { file: this.file, line, column, offset: start, length: Math.max(1, Math.min(end - start, room)) };
  }

  of(node: unknown): Where {
    const r = (node as YamlNode | undefined)?.range;
    return r ? this.at(r[0], r[1]) : this.at(0);
  }

  /** The text of a line, for the caret excerpt. */
  line(n: number): string {
    return (this.lines[n - 1] ?? '').replace(/\r$/, '');
  }
}

export { entryOf, nodeAt } from '../compiler/load.ts';
