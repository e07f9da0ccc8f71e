import { parseDocument, isCollection, isDocument, isMap, isScalar, isSeq, isPair, type Document, type Node as YamlNode, type Pair, Scalar, YAMLMap, YAMLParseError, visit, type YAMLError } from 'yaml';
import { LRUCache } from 'lru-cache';
import type { DiagnosticInput, FileSpan } from './diagnostic.ts';
import type { Fragment, SourceFile } from './source.ts';
import { frozenValue } from './yamlValue.ts';
import { readYaml, type MapPlace, type Place } from './yamlReader.ts';

/** A YAML file of a pack, parsed, with its node positions kept. */
export interface LoadedFile {
  readonly path: string;
  readonly text: string;
  /** The yaml library's document, parsed when first asked for if the file was read without it (`root`). */
  readonly doc: Document.Parsed;
  /** Plain JS value of the document, for the schema check and the declaration pass. */
  readonly data: unknown;
  /** Where the value's parts were written, when compiler/yamlReader.ts read the file. */
  readonly root?: Place;
}

export interface LoadedPack {
  manifest?: LoadedFile;
  files: LoadedFile[];
}

/** A file's text read once: its document, and its plain value or why there is none. */
interface Parsed {
  /** The text parsed: the cache's key may stand for more than one text (`cacheKey`). */
  text: string;
  /** Absent until asked for when the file was read by compiler/yamlReader.ts (`root`). */
  doc?: Document.Parsed;
  root?: Place;
  /** Absent when the document has errors or cannot be turned into a value. */
  data?: unknown;
  /** Why `toJS` refused the document (an alias without its anchor, too many aliases). */
  unreadable?: string;
  /** Where the text nests past `MAX_NESTING`, and how: then neither parser read it. */
  tooDeep?: Nesting;
  /** The file as loaded, by path: an unchanged file is the same object from compile to compile, so the passes after may keep what they read of it by file. */
  loaded?: Map<string, LoadedFile>;
}

/**
 * Parsed documents and their values by file text. Compiling is a pure function of the texts and no
 * pass changes a document or its value (the value is frozen, so one that tried would fail loudly),
 * so an editor that recompiles on every keystroke reads again only the file it changed.
 * Bounded by the texts' size, least recently used first out: a file read by compiler/yamlReader.ts
 * takes about 11 bytes of heap per character of text (its text included), one read or asked for
 * with its document about 20, so 8 M characters (at most about 160 MB) hold the four shipped packs
 * many times over, and an edit never empties the cache of the files it did not touch. The parser's
 * source tokens are not kept: no pass reads them, and they more than doubled a document's size.
 */
const parsedByText = new LRUCache<string, Parsed>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (p) => Math.max(1, p.text.length) });

/**
 * V8 hashes a string longer than this by its length alone, so every version of a large file (an
 * editor's, at the same length) would fall in one bucket of the cache's map, and each look-up would
 * compare the texts there in full: with forty versions of the default pack cached, its look-ups
 * took about 2 ms a compile, 0.4 ms keyed as below.
 */
const FULLY_HASHED = 16383;
const SAMPLE = 8000;

/**
 * The cache's key for a text: the text, or for a longer one its length, head and tail, which V8
 * hashes in full. Two texts alike there but for the middle share the key, and the entry's own text
 * tells them apart: each is then a miss that replaces the other.
 */
function cacheKey(text: string): string {
  return text.length <= FULLY_HASHED ? text : `${text.length}:${text.slice(0, SAMPLE)}${text.slice(-SAMPLE)}`;
}

/**
 * The last text parsed at each path, bounded as the cache by text: an unchanged file is found by
 * its short path and one comparison of texts (of pointers, for the same string), where the cache
 * by text would hash the whole text, or for a large file make and hash its key, on every compile.
 */
const lastByPath = new LRUCache<string, Parsed>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (p) => Math.max(1, p.text.length) });

function parseAt(path: string, text: string): Parsed {
  const last = lastByPath.get(path);
  if (last?.text === text) return last;
  const parsed = parseYaml(text);
  lastByPath.set(path, parsed);
  return parsed;
}

function parseYaml(text: string): Parsed {
  const key = cacheKey(text);
  let parsed = parsedByText.get(key);
  if (parsed?.text !== text) {
    const tooDeep = nestingPast(text);
    if (tooDeep) {
      parsed = { text, tooDeep };
      parsedByText.set(key, parsed);
      return parsed;
    }
    const read = readYaml(text);
    if (read) {
      parsed = { text, data: read.value, root: read.root };
      parsedByText.set(key, parsed);
      return parsed;
    }
    const doc = documentOf(text);
    parsed = { text, doc };
    if (!doc.errors.length) {
      try {
        parsed.data = frozenValue(doc);
      } catch (err) {
        parsed.unreadable = (err as Error).message;
      }
    }
    parsedByText.set(key, parsed);
  }
  return parsed;
}

/**
 * How deeply a pack file may nest its collections. The yaml library recurses once a level: past
 * about 1,600 levels it reports the stack exhausted, and a file of some fifty thousand compact
 * `- - -` levels made it abort the whole process out of memory, so a file is measured before either
 * parser runs, by bounds no nesting can pass: the width of a line's indentation with its compact
 * `- `, `? ` and `: ` indicators, and the `[` and `{` open and not yet closed (counted wherever
 * they stand, in quotes and comments too). No real pack file comes near either.
 */
export const MAX_NESTING = 1000;

interface Nesting {
  at: number;
  bracket: boolean;
}

/**
 * It runs on every changed file before its reading, so on an editor's every keystroke: a text no
 * longer than the bound cannot pass it and is not scanned, and the scan is one pass of character
 * codes, where a sticky expression matched at each line start had cost about a third more.
 */
function nestingPast(text: string): Nesting | undefined {
  if (text.length <= MAX_NESTING) return undefined;
  let open = 0;
  let lineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++open > MAX_NESTING) return { at: i, bracket: true };
    } else if ((c === 0x5d || c === 0x7d) && open > 0) open--;
    else if (lineStart && leadingWidth(text, i) > MAX_NESTING) return { at: i + MAX_NESTING, bracket: false };
    lineStart = c === 0x0a;
  }
  return undefined;
}

/** The width of a line's indentation from `i`: spaces, tabs, and `-`, `?` and `:` followed by a blank, a line break or the end. */
function leadingWidth(text: string, i: number): number {
  let j = i;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === 0x20 || c === 0x09) j++;
    else if (c === 0x2d || c === 0x3f || c === 0x3a) {
      const next = text.charCodeAt(j + 1);
      if (j + 1 < text.length && next !== 0x20 && next !== 0x09 && next !== 0x0d && next !== 0x0a) return j - i;
      j++;
    } else return j - i;
  }
}

/**
 * The yaml library's document of a text, a key written twice in a mapping among its errors.
 * `logLevel: 'error'`: the library's warnings would go to the console, past the diagnostics. Its
 * own `uniqueKeys` compares each key with every key before it in the mapping: 20,000 keys in one
 * mapping of a file the reader left to it took 3.4 s to parse, 40,000 keys 21 s. The same check is
 * made here by a set a mapping, each error at the repeated key's start (the library's place, except
 * after an entry with an empty value, where the library points at the end of the line before).
 *
 * A list or mapping written as a key is an error too, found before anything asks for the
 * document's value: `toJS` writes such a key out as text at every level it is nested, and
 * `'? '.repeat(n) + 'x'` took 2 s at 402 bytes, 52 s at 802, and a 2 kB file ran the process out
 * of memory. No pack or scenario names a thing by a list. Only the outermost such key is reported,
 * so a deep one is one error, not one a level.
 */
export function documentOf(text: string): Document.Parsed {
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, logLevel: 'error' });
  const found: YAMLParseError[] = [];
  // The end of the last list or mapping key reported: the nodes are visited in the order written,
  // so a key that starts before it is inside that one.
  let keyEnd = -1;
  visit(doc, {
    Map(_key, map) {
      if (map.items.length > 1) twice(map.items, found);
    },
    Pair(_key, pair) {
      if (!isCollection(pair.key) || !pair.key.range || pair.key.range[0] < keyEnd) return;
      const [at, end] = pair.key.range;
      keyEnd = end;
      found.push(new YAMLParseError([at, at + 1], 'NON_STRING_KEY', COLLECTION_KEY));
    },
  });
  // After the library's own: the first of those is the syntax error reported, and a compile's diagnostics are sorted by place.
  doc.errors.push(...found);
  return doc;
}

/** The words of a list or mapping written as a key, for whichever reader reports it. */
export const COLLECTION_KEY = 'a list or mapping is written here as a key';
export const COLLECTION_KEY_HINT = 'a key is a single word or quoted text, such as `name:` or `"two words":`; a list or mapping belongs in the value after the key, e.g. `name: [a, b]`';

/**
 * Each key of a mapping equal to one before it, as the library's `uniqueKeys: true` finds them: two
 * scalar keys of the same value (`===`, so never a NaN), at the later key's start.
 */
function twice(items: Pair[], found: YAMLParseError[]): void {
  const seen = new Set<unknown>();
  for (const { key } of items) {
    if (!isScalar(key)) continue;
    const value = key.value;
    if (Number.isNaN(value)) continue;
    if (seen.has(value)) {
      const at = key.range?.[0] ?? 0;
      found.push(new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
    } else seen.add(value);
  }
}

/** A file as the passes see it; its document made when first asked for. */
function loadedFile(path: string, parsed: Parsed): LoadedFile {
  return {
    path,
    text: parsed.text,
    data: parsed.data,
    root: parsed.root,
    get doc() {
      return (parsed.doc ??= documentOf(parsed.text));
    },
  };
}

/**
 * The largest pack file, and the most all the files of a pack (with the packs it builds on) may
 * hold: a pack is untrusted, and reading a file costs memory many times its size. The largest
 * shipped file is under 20 kB.
 */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
export const MAX_PACK_BYTES = 16 * 1024 * 1024;

export const megabytes = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** A scenario file is read by the scenario runner, never by the compiler. */
const isScenario = (path: string) => /^(?:[^:/]+:)?scenarios\//.test(path);

/**
 * Stage 1: every YAML file parsed; syntax errors become diagnostics and the file is left out, as is
 * a file the folder reader refused or one too large to read.
 */
export function loadPack(sources: SourceFile[], report: (d: DiagnosticInput) => void): LoadedPack {
  const files: LoadedFile[] = [];
  let manifest: LoadedFile | undefined;
  let total = 0;
  // A base pack's files (`base-id:path`) come first, so an extending pack's declarations come after.
  const order = (s: SourceFile) => (s.path.includes(':') ? 0 : 1);
  const yamlSources = sources.filter((s) => (s.refused || /\.ya?ml$/.test(s.path)) && !isScenario(s.path)).sort((a, b) => order(a) - order(b) || a.path.localeCompare(b.path));
  for (const src of yamlSources) {
    const eol = src.text.indexOf('\n');
    const start = { file: src.path, start: 0, end: eol < 0 ? src.text.length : eol };
    if (src.refused) {
      report({ code: src.refused.code, message: src.refused.message, at: start, hint: src.refused.hint });
      continue;
    }
    total += src.text.length;
    if (src.text.length > MAX_FILE_BYTES || total > MAX_PACK_BYTES) {
      const file = src.text.length > MAX_FILE_BYTES;
      report({
        code: 'RB0007',
        message: file ? `this file is ${megabytes(src.text.length)}, more than a pack file may be (${megabytes(MAX_FILE_BYTES)})` : `with this file the pack holds more than a pack may (${megabytes(MAX_PACK_BYTES)} in all)`,
        at: start,
        hint: file ? 'split it into several files, or remove what is not rules or cards' : 'a pack this large is not read; remove files that are not rules or cards',
      });
      continue;
    }
    const parsed = parseAt(src.path, src.text);
    if (parsed.tooDeep) {
      const { at, bracket } = parsed.tooDeep;
      report({
        code: 'RB0001',
        message: bracket
          ? `this YAML is malformed: more than ${MAX_NESTING} \`[\` and \`{\` are open here, lists and mappings inside each other deeper than the ${MAX_NESTING} levels a pack file may nest (the file is not read)`
          : `this YAML is malformed: this line is indented past column ${MAX_NESTING} (its \`- \` items counted), lists and mappings inside each other deeper than the ${MAX_NESTING} levels a pack file may nest (the file is not read)`,
        at: { file: src.path, start: at, end: at + 1 },
        hint: bracket
          ? 'close each `[` with `]` and each `{` with `}` where its list or mapping ends, e.g. `next: [a, [b, c]]`; a value nested this deep is better written as entries of its own, side by side'
          : 'write the deep part as entries side by side at a shallower indentation, e.g. a list of lists as `- [a, b]` items, rather than each inside the one before',
      });
      continue;
    }
    const { unreadable } = parsed;
    // Only a file the reader left to the library has its errors looked at: for one the reader read,
    // the document is made later, when some pass asks for it, and its errors (where the reader and
    // the library part ways) would change the same text's diagnostics from one compile to the next.
    const doc = parsed.root ? undefined : parsed.doc;
    if (doc?.errors.length) {
      // After the first syntax error the parser is out of step and the rest mostly repeats it;
      // keys written twice, and lists or mappings written as keys, are independent of each other
      // and are all reported.
      const independent = (e: YAMLError) => e.code === 'DUPLICATE_KEY' || e.code === 'NON_STRING_KEY';
      const syntax = doc.errors.find((e) => !independent(e));
      for (const e of doc.errors) if (independent(e) || e === syntax) report(yamlError(src, doc, e));
      continue;
    }
    if (unreadable !== undefined) {
      const alias = /alias/i.test(unreadable);
      report({
        code: 'RB0012',
        message: `this YAML cannot be read: ${unreadable}`,
        at: { file: src.path, start: 0, end: Math.max(1, src.text.indexOf('\n')) },
        hint: alias ? 'an alias `*name` needs its anchor `&name` earlier in the file, and aliases may not multiply a value many times over' : undefined,
      });
      continue;
    }
    const byPath = (parsed.loaded ??= new Map());
    let loaded = byPath.get(src.path);
    if (!loaded) {
      loaded = loadedFile(src.path, parsed);
      byPath.set(src.path, loaded);
    }
    if (src.path === 'pack.yaml' || src.path === 'pack.yml') manifest = loaded;
    else files.push(loaded);
  }
  if (!manifest && !sources.some((s) => s.path === 'pack.yaml' || s.path === 'pack.yml')) {
    report({ code: 'RB0002', message: 'this pack has no manifest `pack.yaml`', at: { file: 'pack.yaml', start: 0, end: 0 }, hint: 'add a pack.yaml with `id`, `version`, `name`, `languages` and `players`' });
  }
  return { manifest, files };
}

/** A YAML syntax error in the author's terms, pointing where the fix goes when we can tell. */
function yamlError(src: SourceFile, doc: Document.Parsed, e: YAMLError): DiagnosticInput {
  const at = { file: src.path, start: e.pos[0], end: Math.max(e.pos[1], e.pos[0] + 1) };
  if (e.code === 'DUPLICATE_KEY') {
    // The parser's position may fall on the line break before the key.
    const start = Math.min(src.text.length, e.pos[0] + /^\s*/.exec(src.text.slice(e.pos[0]))![0].length);
    const key = /^[^:\n]*/.exec(src.text.slice(start))![0].trim();
    const end = Math.min(src.text.length, Math.max(start + 1, start + key.length));
    return { code: 'RB0010', message: `the key \`${key || 'this key'}\` appears twice in this mapping`, at: { file: src.path, start, end }, hint: 'each key may appear once in a mapping; merge the two entries' };
  }
  if (e.code === 'NON_STRING_KEY') {
    return { code: 'RB0001', message: `this YAML is malformed: ${COLLECTION_KEY}`, at, hint: COLLECTION_KEY_HINT };
  }
  if (e.code === 'MULTIPLE_DOCS') {
    return { code: 'RB0011', message: 'this file holds more than one YAML document', at, hint: 'a pack file is one document: remove the `---` line, or move what follows it to its own file' };
  }
  const flow = /^Flow (map|sequence) in block collection/.exec(e.message);
  if (e.code === 'BAD_INDENT' && flow) {
    const [open, close] = flow[1] === 'map' ? ['{', '}'] : ['[', ']'];
    const start = unclosed(doc, e.pos[0], flow[1] === 'map');
    if (start !== undefined) {
      return { code: 'RB0001', message: `this YAML is malformed: the \`${open}\` here is never closed`, at: { file: src.path, start, end: start + 1 }, hint: `end the ${flow[1] === 'map' ? 'mapping' : 'list'} with \`${close}\` on its line, e.g. \`${flow[1] === 'map' ? 'name: { en: Tumblekin }' : 'next: [a, b]'}\`` };
    }
  }
  return { code: 'RB0001', message: `this YAML is malformed: ${e.message.split('\n')[0]}`, at };
}

/** Where the flow collection (`{ … }` or `[ … ]`) that runs into `at` opens, from the partial document. */
function unclosed(doc: Document.Parsed, at: number, map: boolean): number | undefined {
  let found: number | undefined;
  visit(doc, (_key, node) => {
    const c = map ? (isMap(node) ? node : undefined) : isSeq(node) ? node : undefined;
    if (c?.flow && c.range && c.range[1] === at && c.range[0] < at) found = Math.max(found ?? -1, c.range[0]);
  });
  return found;
}

/** The key node of `key` in a mapping, and its value node. */
export function entryOf(map: unknown, key: string): { key: YamlNode; value: YamlNode | null } | undefined {
  if (!isMap(map)) return undefined;
  const pair = map.items.length > MANY ? pairsOf(map).get(key) : map.items.find((p) => isScalar(p.key) && String(p.key.value) === key);
  return pair ? { key: pair.key as YamlNode, value: (pair.value as YamlNode | null) ?? null } : undefined;
}

/**
 * Past this many keys a mapping's keys are found by name in a table made once: the passes look up
 * each entry of a section by name, so a search through the mapping for each made a hostile file of
 * 20,000 enums cost seconds. No pass changes a document, so the table stays true.
 */
const MANY = 16;

const pairsByMap = new WeakMap<YAMLMap, Map<string, Pair>>();

function pairsOf(map: YAMLMap): Map<string, Pair> {
  let pairs = pairsByMap.get(map);
  if (!pairs) {
    pairs = new Map();
    // The first pair of a name, as a search would find it.
    for (const p of map.items) if (isScalar(p.key) && !pairs.has(String(p.key.value))) pairs.set(String(p.key.value), p as Pair);
    pairsByMap.set(map, pairs);
  }
  return pairs;
}

/** A mapping's keys' indexes by name, for a mapping of more than `MANY` keys (`pairsOf`). */
const indexesByPlace = new WeakMap<MapPlace, Map<string, number>>();

export function indexIn(place: MapPlace, name: string): number {
  if (place.names.length <= MANY) return place.names.indexOf(name);
  let indexes = indexesByPlace.get(place);
  if (!indexes) {
    indexes = new Map();
    // The reader leaves a mapping with a name written twice to the library: each name is once here.
    for (let i = 0; i < place.names.length; i++) indexes.set(place.names[i], i);
    indexesByPlace.set(place, indexes);
  }
  return indexes.get(name) ?? -1;
}

/**
 * The node at a path of keys and indexes below a document or a node; with `key`, the key node of
 * the last step, to point at `terain:` rather than its value. Stops at the nearest existing parent.
 */
export function nodeAt(root: unknown, path: Array<string | number>, key = false): YamlNode | undefined {
  let node: unknown = isDocument(root) ? root.contents : root;
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    if (isMap(node)) {
      const e = entryOf(node, String(step));
      if (!e) return node as YamlNode;
      node = i === path.length - 1 && key ? e.key : (e.value ?? e.key);
    } else if (isSeq(node)) {
      const item = node.items[Number(step)];
      if (item === undefined) return node as YamlNode;
      node = item;
    } else return node as YamlNode;
  }
  return node as YamlNode;
}

export function spanOf(file: LoadedFile, node: YamlNode | undefined): FileSpan {
  const r = node?.range;
  if (!r) return { file: file.path, start: 0, end: 0 };
  return { file: file.path, start: r[0], end: Math.max(r[1], r[0] + 1) };
}

export function spanAt(file: LoadedFile, path: Array<string | number>, key = false): FileSpan {
  const place = file.root && placeAt(file.root, path, key);
  // A collection's range, or an empty value's, is the library's to say.
  if (place?.kind === 0 && place.exact) return { file: file.path, start: place.start, end: Math.max(place.end, place.start + 1) };
  const at = placeIn(file, path);
  if (key) {
    if (at.keyNode === undefined) at.keyNode = nodeAt(file.doc, path, true) ?? null;
    return spanOf(file, at.keyNode ?? undefined);
  }
  if (at.node === undefined) at.node = nodeAt(file.doc, path) ?? null;
  return spanOf(file, at.node ?? undefined);
}

/** The place at a path of keys and indexes, found as `nodeAt` finds the node there. */
function placeAt(root: Place, path: Array<string | number>, key: boolean): Place {
  let place = root;
  for (let i = 0; i < path.length; i++) {
    const step = path[i];
    if (place.kind === 1) {
      const at = indexIn(place, String(step));
      if (at < 0) return place;
      place = i === path.length - 1 && key ? place.keys[at] : place.values[at];
    } else if (place.kind === 2) {
      const item = place.items[Number(step)];
      if (item === undefined) return place;
      place = item;
    } else return place;
  }
  return place;
}

/**
 * What was found at a path of a file, kept by file (one per path and file text, the parse cache)
 * and path, so a recompile looks up again only the files that changed.
 */
interface Found {
  next?: Map<string | number, Found>;
  node?: YamlNode | null;
  keyNode?: YamlNode | null;
  fragment?: Fragment | null;
}

const found = new WeakMap<LoadedFile, Found>();

function placeIn(file: LoadedFile, path: Array<string | number>): Found {
  let at = found.get(file);
  if (!at) {
    at = {};
    found.set(file, at);
  }
  for (const p of path) at = step(at, p);
  return at;
}

function step(at: Found, key: string | number): Found {
  const next = (at.next ??= new Map());
  let f = next.get(key);
  if (!f) {
    f = {};
    next.set(key, f);
  }
  return f;
}

/**
 * The rules text held by a YAML string, with a map from its offsets back into the file.
 * Block scalars (`|`) keep one text line per file line, shifted by the block's indentation.
 */
export function fragmentOf(file: LoadedFile, path: Array<string | number>): Fragment | undefined {
  const at = placeIn(file, path);
  if (at.fragment === undefined) at.fragment = readFragment(file, path) ?? null;
  return at.fragment ?? undefined;
}

function readFragment(file: LoadedFile, path: Array<string | number>): Fragment | undefined {
  const scalar = scalarAt(file, path);
  if (!scalar || typeof scalar.value !== 'string') return undefined;
  const { value: text, start, end: valueEnd, type } = scalar;
  if (type === Scalar.BLOCK_LITERAL || type === Scalar.BLOCK_FOLDED) {
    const raw = file.text.slice(start, valueEnd);
    const firstBreak = raw.indexOf('\n');
    const bodyStart = start + firstBreak + 1;
    const rawLines = file.text.slice(bodyStart, valueEnd).split('\n');
    // A loop, not `Math.min(...lines)`: a block of a million lines would overflow the call stack.
    let indent = 1e9;
    for (const l of rawLines) if (l.trim().length) indent = Math.min(indent, l.length - l.trimStart().length);
    // Each written line's words stand in the value in order; only the breaks between them differ
    // (a folded block joins lines with a space and drops a blank line's break), so a line is found
    // in the value by its words rather than by counting line breaks.
    const lineFileStarts: number[] = [];
    const lineTextStarts: number[] = [];
    let at = bodyStart;
    let cursor = 0;
    for (const l of rawLines) {
      // A CRLF file's line ends in its `\r`, which the value does not hold.
      const words = l.slice(Math.min(indent, l.length), l.endsWith('\r') ? -1 : undefined);
      const found = words.length ? text.indexOf(words, cursor) : -1;
      if (found >= 0) {
        lineFileStarts.push(at + Math.min(indent, l.length));
        lineTextStarts.push(found);
        cursor = found + words.length;
      }
      at += l.length + 1;
    }
    if (!lineTextStarts.length) {
      lineFileStarts.push(bodyStart);
      lineTextStarts.push(0);
    }
    return {
      file: file.path,
      text,
      toFile(offset: number): number {
        // The last line starting at or before `offset`, by bisection: a game's rules run to hundreds of lines.
        let line = 0;
        let high = lineTextStarts.length - 1;
        while (line < high) {
          const mid = (line + high + 1) >> 1;
          if (lineTextStarts[mid] <= offset) line = mid;
          else high = mid - 1;
        }
        return lineFileStarts[line] + Math.max(0, offset - lineTextStarts[line]);
      },
    };
  }
  const quoted = type === Scalar.QUOTE_DOUBLE || type === Scalar.QUOTE_SINGLE ? 1 : 0;
  return { file: file.path, text, toFile: (offset) => Math.min(start + quoted + offset, valueEnd) };
}

/** The scalar at a path, from the reader's places or the document. */
function scalarAt(file: LoadedFile, path: Array<string | number>): { start: number; end: number; type?: Scalar.Type; value: unknown } | undefined {
  if (file.root) {
    const place = placeAt(file.root, path, false);
    return place.kind === 0 ? place : undefined;
  }
  const node = nodeAt(file.doc, path);
  if (!isScalar(node) || !node.range) return undefined;
  return { start: node.range[0], end: node.range[1], type: node.type, value: node.value };
}

export function fragmentSpan(f: Fragment, span: { start: number; end: number }): FileSpan {
  return { file: f.file, start: f.toFile(span.start), end: Math.max(f.toFile(span.end), f.toFile(span.start) + 1) };
}

export { isMap, isScalar, isSeq, isPair, YAMLMap };
