/**
 * A pack file's YAML walked part by part: from the reader's places (compiler/yamlReader.ts) when it
 * read the file, else from the yaml library's document. A pass that reads only keys, scalars and
 * their places then never makes the library's document of a file the reader read: the symbol index
 * made one for every file of the pack, so an editor's first hover on a pack of 165 files paid for
 * all of them.
 */
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { FileSpan } from './diagnostic.ts';
import { entryOf, indexIn, type LoadedFile } from './load.ts';
import type { Place } from './yamlReader.ts';

/** A mapping, list or scalar of a file, the reader's or the library's. */
export type Part = Place | YamlNode;

/** A scalar: its value, where it is written (quotes included), and whether it is quoted. */
export interface ScalarPart {
  value: unknown;
  start: number;
  end: number;
  quoted: boolean;
}

const isPlace = (part: unknown): part is Place => typeof (part as Place | null)?.kind === 'number';
const isMapping = (part: Part | null | undefined) => (isPlace(part) ? part.kind === 1 : isMap(part));

/** The file's top part. */
export function rootOf(file: LoadedFile): Part | undefined {
  return file.root ?? (file.doc.contents as YamlNode | null) ?? undefined;
}

/** A mapping's entries in order, keys and values; undefined for a part that is not a mapping. */
export function entriesOf(part: Part | null | undefined): Array<{ key: Part; value: Part | undefined }> | undefined {
  if (isPlace(part)) return part.kind === 1 ? part.keys.map((key, i) => ({ key, value: part.values[i] })) : undefined;
  if (!isMap(part)) return undefined;
  return part.items.map((p) => ({ key: p.key as Part, value: (p.value as Part | null) ?? undefined }));
}

/** The first entry of a mapping whose key is `name` (`String` of the key's value). */
export function entryNamed(part: Part | null | undefined, name: string): { key: Part; value: Part | undefined } | undefined {
  if (isPlace(part)) {
    if (part.kind !== 1) return undefined;
    const i = indexIn(part, name);
    return i < 0 ? undefined : { key: part.keys[i], value: part.values[i] };
  }
  const pair = entryOf(part, name);
  return pair && { key: pair.key, value: pair.value ?? undefined };
}

/** A list's items; undefined for a part that is not a list. */
export function itemsOf(part: Part | null | undefined): Part[] | undefined {
  if (isPlace(part)) return part.kind === 2 ? part.items : undefined;
  return isSeq(part) ? (part.items as Part[]) : undefined;
}

export function scalarOf(part: Part | null | undefined): ScalarPart | undefined {
  if (isPlace(part)) return part.kind === 0 ? { value: part.value, start: part.start, end: part.end, quoted: part.type === 'QUOTE_DOUBLE' || part.type === 'QUOTE_SINGLE' } : undefined;
  if (!isScalar(part) || !part.range) return undefined;
  return { value: part.value, start: part.range[0], end: part.range[1], quoted: part.type === 'QUOTE_DOUBLE' || part.type === 'QUOTE_SINGLE' };
}

/** The part at a path of keys and indexes, or the nearest part on the way that has it not (as compiler/load.ts `nodeAt`). */
export function partAt(file: LoadedFile, path: Array<string | number>): Part | undefined {
  let part = rootOf(file);
  for (const step of path) {
    const next = isMapping(part) ? entryNamed(part, String(step))?.value : itemsOf(part)?.[Number(step)];
    if (next === undefined) return part;
    part = next;
  }
  return part;
}

/** Where a scalar is written; the file's start for any other part. */
export function spanOfPart(file: LoadedFile, part: Part | null | undefined): FileSpan {
  const s = scalarOf(part);
  return s ? { file: file.path, start: s.start, end: Math.max(s.end, s.start + 1) } : { file: file.path, start: 0, end: 0 };
}

/**
 * Where the text of a part ends: a scalar's end, a collection's last scalar's; undefined for an
 * empty collection. Read the same way from either parser's parts, so a file's outline does not
 * depend on which read it.
 */
export function endOf(part: Part | null | undefined): number | undefined {
  const s = scalarOf(part);
  if (s) return s.end;
  const entries = entriesOf(part);
  if (entries) {
    for (let i = entries.length - 1; i >= 0; i--) {
      const end = endOf(entries[i].value) ?? endOf(entries[i].key);
      if (end !== undefined) return end;
    }
    return undefined;
  }
  const items = itemsOf(part);
  for (let i = (items?.length ?? 0) - 1; i >= 0; i--) {
    const end = endOf(items![i]);
    if (end !== undefined) return end;
  }
  return undefined;
}
