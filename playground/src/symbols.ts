/**
 * What the editor knows about a pack without the compiler: the names declared in its YAML (kinds,
 * their fields, enums and members, entities) and the declarations in its `rules:` blocks, each with
 * the place it was written. Completion, hover and go-to-definition read this index; it is rebuilt
 * in the worker on every compile and works on packs with errors too.
 */
import { isMap, isScalar, isSeq, parseDocument, type Node as YamlNode, type Pair, type Scalar } from 'yaml';
import { parseRules } from '../../dsl/parser.ts';
import type { SourceFile } from './engine-types.ts';

export interface Place {
  file: string;
  offset: number;
  end: number;
}

export interface EntitySymbol extends Place {
  id: string;
  kind?: string;
  name: Record<string, string>;
  text: Record<string, string>;
}

export interface KindSymbol extends Place {
  name: string;
  props: Record<string, string>;
  state: Record<string, string>;
  graph?: string;
}

export interface EnumSymbol extends Place {
  name: string;
  members: string[];
}

export interface DeclSymbol extends Place {
  name: string;
  /** fn, proc, action, event, pipeline, on, modify. */
  kind: string;
  signature: string;
}

export interface FieldSymbol extends Place {
  kind: string;
  name: string;
  type: string;
  /** `prop` (static, from YAML) or `state` (changes during play). */
  role: 'prop' | 'state';
}

/** A block of rules text inside a YAML file: where its lines start, for mapping rule offsets to file offsets. */
export interface RulesBlock {
  file: string;
  /** File offset of the start of each line of the rules text. */
  lineStarts: number[];
  text: string;
}

export interface SymbolIndex {
  entities: Record<string, EntitySymbol>;
  kinds: Record<string, KindSymbol>;
  enums: Record<string, EnumSymbol>;
  /** Enum member → the enums that have it. */
  members: Record<string, string[]>;
  fields: Record<string, FieldSymbol[]>;
  decls: Record<string, DeclSymbol[]>;
  languages: string[];
  rulesBlocks: RulesBlock[];
}

export function emptyIndex(): SymbolIndex {
  return { entities: {}, kinds: {}, enums: {}, members: {}, fields: {}, decls: {}, languages: [], rulesBlocks: [] };
}

function place(file: string, node: YamlNode | null | undefined): Place {
  const r = node?.range;
  return { file, offset: r?.[0] ?? 0, end: r?.[1] ?? 0 };
}

function scalarText(n: unknown): string | undefined {
  if (isScalar(n) && n.value !== null && n.value !== undefined && typeof n.value !== 'object') return String(n.value);
  return undefined;
}

function typeText(n: unknown): string {
  const s = scalarText(n);
  if (s !== undefined) return s;
  if (isMap(n)) {
    const t = scalarText(n.get('type', true));
    const extras: string[] = [];
    if (scalarText(n.get('hidden', true)) === 'true') extras.push('hidden');
    const d = n.get('default', true);
    if (d !== undefined) extras.push(`default ${scalarText(d) ?? '…'}`);
    return `${t ?? '?'}${extras.length ? ` (${extras.join(', ')})` : ''}`;
  }
  return '?';
}

function langMap(n: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const s = scalarText(n);
  if (s !== undefined) {
    out.en = s;
    return out;
  }
  if (isMap(n)) {
    for (const p of n.items as Pair[]) {
      const k = scalarText(p.key);
      const v = scalarText(p.value);
      if (k && v !== undefined) out[k] = v;
    }
  }
  return out;
}

/** Where each line of a block scalar's value starts in the file, so rule offsets map back to the file. */
function blockLines(file: string, source: string, node: Scalar): RulesBlock | undefined {
  const value = typeof node.value === 'string' ? node.value : undefined;
  if (value === undefined || !node.range) return undefined;
  const [start, end] = node.range;
  const lineStarts: number[] = [];
  if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') {
    // The header (`|`, `|-`) ends its line; content lines follow with a common indent.
    let pos = source.indexOf('\n', start);
    if (pos < 0) return undefined;
    pos += 1;
    const lines = value.split('\n');
    // Indentation of the first non-empty content line.
    let indent = 0;
    const firstContent = source.slice(pos, end).split('\n').find((l) => l.trim() !== '');
    if (firstContent) indent = firstContent.length - firstContent.trimStart().length;
    for (let i = 0; i < lines.length; i++) {
      const lineEnd = source.indexOf('\n', pos);
      const raw = source.slice(pos, lineEnd < 0 ? source.length : lineEnd);
      lineStarts.push(pos + Math.min(indent, raw.length));
      if (lineEnd < 0) break;
      pos = lineEnd + 1;
    }
    return { file, lineStarts, text: value };
  }
  // Plain or quoted single-line scalar: offsets map directly (quotes shift by one).
  const shift = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' ? 1 : 0;
  if (value.includes('\n')) return undefined;
  return { file, lineStarts: [start + shift], text: value };
}

/** Map an offset in a rules block's text to an offset in its file. */
export function blockOffset(b: RulesBlock, at: number): number {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < b.text.length && i < at; i++) {
    if (b.text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return (b.lineStarts[line] ?? b.lineStarts[b.lineStarts.length - 1] ?? 0) + (at - lineStart);
}

function signatureOf(d: ReturnType<typeof parseRules>['value'] extends infer P ? P extends { decls: Array<infer D> } ? D : never : never): string {
  const type = (t: { name: string; element?: unknown; optional: boolean }): string => {
    const el = t.element as { name: string; element?: unknown; optional: boolean } | undefined;
    return `${t.name}${el ? `<${type(el)}>` : ''}${t.optional ? '?' : ''}`;
  };
  const params = 'params' in d ? `(${d.params.map((p) => `${p.name}: ${type(p.type)}`).join(', ')})` : '';
  const binds = 'binds' in d && d.binds.length ? `(${d.binds.map((b) => b.name).join(', ')})` : '';
  const returns = 'returns' in d ? `: ${type(d.returns)}` : '';
  if (d.kind === 'setup' || d.kind === 'flow') return d.kind;
  return `${d.kind} ${d.name}${params || binds}${returns}`;
}

/** Index of one file. Never throws: a file that does not parse adds nothing. */
export function indexFile(f: SourceFile): SymbolIndex {
  const idx = emptyIndex();
  const addDecl = (s: DeclSymbol) => (idx.decls[s.name] ??= []).push(s);

  const visitRules = (file: string, source: string, node: unknown) => {
    if (!isScalar(node)) return;
    const block = blockLines(file, source, node);
    if (!block) return;
    idx.rulesBlocks.push(block);
    let parsed: ReturnType<typeof parseRules>;
    try {
      parsed = parseRules(block.text);
    } catch {
      return;
    }
    for (const d of parsed.value?.decls ?? []) {
      if (d.kind === 'setup' || d.kind === 'flow') continue;
      const offset = blockOffset(block, d.nameSpan.start);
      addDecl({ name: d.name, kind: d.kind, signature: signatureOf(d), file, offset, end: offset + (d.nameSpan.end - d.nameSpan.start) });
    }
  };

  const visitEntity = (file: string, source: string, id: string, keyNode: YamlNode, body: unknown, kindHint?: string) => {
    const m = isMap(body) ? body : undefined;
    const kind = kindHint ?? scalarText(m?.get('kind', true));
    idx.entities[id] = { id, kind, name: langMap(m?.get('name', true)), text: langMap(m?.get('text', true)), ...place(file, keyNode) };
    if (m) visitRules(file, source, m.get('rules', true));
  };

  {
    let doc;
    try {
      doc = parseDocument(f.text, { keepSourceTokens: false });
    } catch {
      return idx;
    }
    const root = doc.contents;
    if (!isMap(root)) return idx;
    const section = (name: string) => root.get(name, true);
    if (f.path === 'pack.yaml') {
      const langs = root.get('languages', true);
      if (isSeq(langs)) idx.languages = langs.items.map(scalarText).filter((s): s is string => !!s);
    }
    const enums = section('enums');
    if (isMap(enums)) {
      for (const p of enums.items as Pair[]) {
        const name = scalarText(p.key);
        if (!name) continue;
        const members = isSeq(p.value) ? p.value.items.map(scalarText).filter((s): s is string => !!s) : [];
        idx.enums[name] = { name, members, ...place(f.path, p.key as YamlNode) };
        for (const mem of members) (idx.members[mem] ??= []).push(name);
      }
    }
    const kinds = section('kinds');
    if (isMap(kinds)) {
      for (const p of kinds.items as Pair[]) {
        const name = scalarText(p.key);
        if (!name) continue;
        const body = isMap(p.value) ? p.value : undefined;
        const props: Record<string, string> = {};
        const state: Record<string, string> = {};
        for (const [role, target] of [['props', props], ['state', state]] as const) {
          const fields = body?.get(role, true);
          if (!isMap(fields)) continue;
          for (const fp of fields.items as Pair[]) {
            const fname = scalarText(fp.key);
            if (!fname) continue;
            target[fname] = typeText(fp.value);
            (idx.fields[fname] ??= []).push({ kind: name, name: fname, type: target[fname], role: role === 'props' ? 'prop' : 'state', ...place(f.path, fp.key as YamlNode) });
          }
        }
        idx.kinds[name] = { name, props, state, graph: scalarText(body?.get('graph', true)), ...place(f.path, p.key as YamlNode) };
        if (body) visitRules(f.path, f.text, body.get('rules', true));
      }
    }
    const entities = section('entities');
    if (isMap(entities)) {
      for (const p of entities.items as Pair[]) {
        const key = scalarText(p.key);
        if (!key) continue;
        const v = p.value;
        // `entities: { id: { kind: …, … } }` or grouped by kind: `entities: { race: { id: {…} } }`.
        if (isMap(v) && v.get('kind', true) === undefined && v.items.length && v.items.every((q) => isMap((q as Pair).value) || (q as Pair).value === null)) {
          const looksGrouped = (v.items as Pair[]).every((q) => !['name', 'text', 'rules', 'props'].includes(scalarText(q.key) ?? ''));
          if (looksGrouped) {
            for (const q of v.items as Pair[]) {
              const id = scalarText(q.key);
              if (id) visitEntity(f.path, f.text, id, q.key as YamlNode, q.value, key);
            }
            continue;
          }
        }
        visitEntity(f.path, f.text, key, p.key as YamlNode, v);
      }
    } else if (isSeq(entities)) {
      for (const item of entities.items) {
        if (!isMap(item)) continue;
        // `- race: orcs` (the first key names the kind, its value the id) or `- id: orcs, kind: race`.
        const idNode = item.get('id', true);
        if (idNode !== undefined) {
          const id = scalarText(idNode);
          if (id) visitEntity(f.path, f.text, id, idNode as YamlNode, item);
          continue;
        }
        const first = item.items[0] as Pair | undefined;
        const kind = scalarText(first?.key);
        const id = scalarText(first?.value);
        if (kind && id) visitEntity(f.path, f.text, id, first!.value as YamlNode, item, kind);
      }
    }
    visitRules(f.path, f.text, section('rules'));
    // Other sections may hold rules too (`scoring: { rules: | … }`).
    for (const p of root.items as Pair[]) {
      const k = scalarText(p.key);
      if (k && !['enums', 'kinds', 'entities', 'rules'].includes(k) && isMap(p.value)) visitRules(f.path, f.text, p.value.get('rules', true));
    }
  }
  return idx;
}

/** Per-file indexes by path, reused while a file's text is unchanged: typing re-indexes one file. */
const cache = new Map<string, { text: string; idx: SymbolIndex }>();

/** The index of a whole pack, merged from the files' own. */
export function indexPack(files: SourceFile[]): SymbolIndex {
  const out = emptyIndex();
  const seen = new Set<string>();
  for (const f of files) {
    seen.add(f.path);
    let hit = cache.get(f.path);
    if (!hit || hit.text !== f.text) {
      hit = { text: f.text, idx: indexFile(f) };
      cache.set(f.path, hit);
    }
    const i = hit.idx;
    Object.assign(out.entities, i.entities);
    Object.assign(out.kinds, i.kinds);
    Object.assign(out.enums, i.enums);
    for (const [k, v] of Object.entries(i.members)) (out.members[k] ??= []).push(...v);
    for (const [k, v] of Object.entries(i.fields)) (out.fields[k] ??= []).push(...v);
    for (const [k, v] of Object.entries(i.decls)) (out.decls[k] ??= []).push(...v);
    if (i.languages.length) out.languages = i.languages;
    out.rulesBlocks.push(...i.rulesBlocks);
  }
  for (const p of [...cache.keys()]) if (!seen.has(p)) cache.delete(p);
  return out;
}
