import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
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

/** The key node of `key` in a mapping, and its value node. */
export function entryOf(map: unknown, key: string): { key: YamlNode; value: YamlNode | null } | undefined {
  if (!isMap(map)) return undefined;
  const pair = map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return pair ? { key: pair.key as YamlNode, value: (pair.value as YamlNode | null) ?? null } : undefined;
}

/**
 * The node at a JSON-pointer-like path of keys and indexes; with `key`, the key node of the last
 * step, to point at `promt:` rather than its value. Stops at the nearest existing parent.
 */
export function nodeAt(root: unknown, path: Array<string | number>, key = false): YamlNode | undefined {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const e = entryOf(node, String(step));
      if (!e) return node as YamlNode;
      node = last && key ? e.key : e.value ?? e.key;
    } else if (isSeq(node)) {
      const item = node.items[Number(step)];
      if (item === undefined) return node as YamlNode;
      node = item;
    } else return node as YamlNode;
  }
  return node as YamlNode;
}
