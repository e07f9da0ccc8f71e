import { isScalar, parseDocument, Scalar, type ScalarTag } from 'yaml';

/**
 * A reader of the YAML pack files are written in — block mappings and lists, one-line plain and
 * quoted scalars, `|` and `>` blocks, flow mappings and lists — that gives the same value the yaml
 * library's document would (compiler/yamlValue.ts) and the same range for every scalar, without
 * building the document: the library's lexer, syntax tree and composer made a cold compile's YAML
 * parse cost as much as all the rest of the compiler. Anything outside that subset (anchors, tags,
 * multi-line plain or quoted scalars, tabs but between two characters of a scalar's text, directives,
 * a duplicate key, any syntax error) makes it give up, and the file is read by the library as
 * before, so every diagnostic of a malformed file is still the library's. A file written with
 * CRLF line ends or a leading byte order mark is read as its text without them, and every range
 * given back in the file as written. test/compilerYamlReader.test.ts checks it against the library on
 * every shipped file and on thousands of mutations of them.
 */

/** A scalar where the yaml library's `Scalar` would stand: its `range[0]`, `range[1]`, `type` and value. */
export interface ScalarPlace {
  readonly kind: 0;
  readonly start: number;
  readonly end: number;
  readonly type: Scalar.Type;
  readonly value: unknown;
  /** False for an empty value (`key:` and nothing), whose range the library finds by rules not kept here. */
  readonly exact: boolean;
}

/** A mapping: its keys' names (`String` of the key's value), and each key's scalar and its value, in order. */
export interface MapPlace {
  readonly kind: 1;
  /** The mapping's value, frozen: the same object the value of the file holds there. */
  readonly value: unknown;
  readonly names: string[];
  readonly keys: ScalarPlace[];
  readonly values: Place[];
}

export interface SeqPlace {
  readonly kind: 2;
  readonly value: unknown;
  readonly items: Place[];
}

export type Place = ScalarPlace | MapPlace | SeqPlace;

/** What the reader made of a file: the plain value, frozen, and where each of its parts was written. */
export interface Read {
  value: unknown;
  root: Place;
}

/** Thrown (and caught in `readYaml`) when the text is not of the subset read here. */
class Unread extends Error {}
const unread = new Unread();

// The core schema's scalar types as the library resolves them: the same tag objects, tried in its order.
const probe = parseDocument('a: 1');
const scalarTags = probe.schema.tags.filter((t): t is ScalarTag => !t.collection && t.default === true && t.test !== undefined);
const options = probe.options;
const failed = () => {
  throw unread;
};

const MAY_BE_TYPED = /[~nNtTfF0-9+\-.]/;

/** A plain scalar's value as the library resolves it in the core schema. */
function resolvePlain(source: string): unknown {
  // Every core type but the string starts with one of these (or is empty): most words need no test.
  if (source.length && !MAY_BE_TYPED.test(source[0])) return source;
  for (const tag of scalarTags) {
    if (tag.test!.test(source)) {
      const v = tag.resolve(source, failed, options);
      return isScalar(v) ? v.value : v;
    }
  }
  return source;
}

/** Characters that open something other than a plain scalar, or that the library refuses there. */
const INDICATOR = new Set(['-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', "'", '"', '%', '@', '`']);
const FLOW = new Set([',', '[', ']', '{', '}']);
/**
 * Text the subset never holds: a carriage return but before a line feed (those are taken out
 * first), a byte order mark but the text's first character (likewise), control and C1 characters,
 * line and paragraph separators; and a tab where the library could take it for a space — at a
 * line's start or end, beside a space, or beside an indicator it could separate from a value
 * (`key:<tab>value`, `-<tab>item`, `[<tab>a`, `a<tab>: b`, `a<tab># comment`, `[a<tab>]`).
 * Between two other characters a tab is text, as the library reads it.
 */
const OUTSIDE = /[\r\ufeff\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]|\t(?:(?<![^ \t\n:\-?,[\]{}|>]\t)|(?![^ \t\n:\]},#]))|^(?:---|\.\.\.)(?:[ \n]|$)|^%/m;

/**
 * The library refuses an implicit block key whose `:` is more than 1024 characters past the key's
 * start (trailing spaces and quotes counted); a flow mapping's key has no such limit. Keys near it
 * are left to the library to decide.
 */
const MAX_KEY = 1000;

const isEnd = (ch: string | undefined) => ch === undefined || ch === '\n';
const isBlank = (ch: string | undefined) => ch === undefined || ch === '\n' || ch === ' ';

/**
 * The file's value and places, or undefined when the text is outside the subset (the library then
 * reads it, and says what is wrong if anything is).
 */
export function readYaml(text: string): Read | undefined {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let src = bom ? text.slice(1) : text;
  // Where each `\r` of a `\r\n` stood in the text without them: its line feed's place there.
  let breaks: number[] | undefined;
  if (src.includes('\r\n')) {
    breaks = [];
    for (let at = src.indexOf('\r\n'); at >= 0; at = src.indexOf('\r\n', at + 2)) breaks.push(at - breaks.length);
    src = src.replace(/\r\n/g, '\n');
  }
  // The library takes a list opening right after a byte order mark for one more indented than the
  // lines below it, and fails the file: its error, not a reading the library would not give.
  if ((bom && src[0] === '-') || OUTSIDE.test(src)) return undefined;
  try {
    const read = new Reader(src).document();
    if (!bom && !breaks) return read;
    const inFile = writtenAt(bom, breaks ?? []);
    return { value: read.value, root: moved(read.root, inFile) };
  } catch (err) {
    if (err === unread) return undefined;
    // Nested past the call stack: the library says so in its own words.
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

/**
 * The place in the file as written of a place in the text read: past the byte order mark, and past
 * each `\r` taken out before it. A range ending at a line's end ends before that line's `\r`, as
 * the library's does; one ending after the line feed (a block scalar's) takes the `\r` in.
 */
function writtenAt(bom: number, breaks: number[]): (at: number) => number {
  return (at) => {
    // How many of the `\r` stood before `at`: those whose line feed is before it.
    let low = 0;
    let high = breaks.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (breaks[mid] < at) low = mid + 1;
      else high = mid;
    }
    return at + bom + low;
  };
}

/** A place and the places inside it, their ranges moved by `inFile`. */
function moved(place: Place, inFile: (at: number) => number): Place {
  if (place.kind === 0) return { ...place, start: inFile(place.start), end: inFile(place.end) };
  if (place.kind === 1) return { ...place, keys: place.keys.map((k) => moved(k, inFile) as ScalarPlace), values: place.values.map((v) => moved(v, inFile)) };
  return { ...place, items: place.items.map((i) => moved(i, inFile)) };
}

/**
 * How deeply collections may nest in what the reader reads. The library's own limit depends on how
 * much of the call stack is left when it parses (about 1,600 flow lists in a fresh Node 20), so
 * past a fixed depth well below it the library decides.
 */
const MAX_DEPTH = 256;

class Reader {
  private pos = 0;
  /** Collections open around `pos`. */
  private depth = 0;

  constructor(private readonly src: string) {}

  document(): Read {
    const first = this.nextLine(0);
    if (first < 0 || this.column(first) !== 0) throw unread;
    this.pos = first;
    const node = this.blockAt(0);
    if (this.nextLine(this.pos) >= 0) throw unread;
    return { value: node.value, root: node };
  }

  /** The column of `at`: how far it is from the start of its line. */
  private column(at: number): number {
    return at - this.src.lastIndexOf('\n', at - 1) - 1;
  }

  /**
   * From `at` (a line's start, a line's end, or a comment whose `#` follows a space), the first
   * character of the next line holding more than spaces and a comment, or -1 at the end of the
   * text. A `#` found here is at a line's start, after spaces, or at `at`: a comment in each case.
   */
  private nextLine(at: number): number {
    const s = this.src;
    let i = at;
    for (;;) {
      while (s[i] === ' ') i++;
      const ch = s[i];
      if (ch === undefined) return -1;
      if (ch === '#') {
        i = s.indexOf('\n', i);
        if (i < 0) return -1;
      }
      if (s[i] !== '\n') return i;
      i++;
    }
  }

  /** After a value on its line: spaces, maybe a comment, then the line's end; the position after it. */
  private lineEnd(at: number): number {
    const s = this.src;
    let i = at;
    while (s[i] === ' ') i++;
    if (s[i] === '#') {
      if (i === at) throw unread;
      i = s.indexOf('\n', i);
      return i < 0 ? s.length : i;
    }
    if (!isEnd(s[i])) throw unread;
    return i;
  }

  /** A block mapping or list whose first line's content starts at `this.pos`, at column `col`. */
  private blockAt(col: number): Place {
    const s = this.src;
    const ch = s[this.pos];
    if (ch === '-' && isBlank(s[this.pos + 1])) return this.seq(col);
    if (this.isKey(this.pos)) return this.map(col);
    throw unread;
  }

  /**
   * A key's name among the places (`String` of its value, as compiler/load.ts finds a key in a
   * document) and its property's in the value (the same but for a null key, which `toJS` names
   * `''`); a key whose name is taken already, or a merge key, is left to the library. `taken`
   * holds the mapping's names so far, as a set once they are many: a pack may be hostile.
   */
  private name(key: ScalarPlace, names: string[], taken: { set?: Set<string> }): [string, string] {
    const name = String(key.value);
    if (names.length === 16) taken.set = new Set(names);
    const set = taken.set;
    if (name === '<<' || (set ? set.has(name) : names.includes(name))) throw unread;
    if ((name === '' || name === 'null') && (set ? set.has('') || set.has('null') : names.includes('') || names.includes('null'))) throw unread;
    set?.add(name);
    return [name, key.value === null ? '' : name];
  }

  /**
   * The value of a key or a dash with nothing after it on its line (`at`: the line's end or its
   * comment): the collection on the lines below when they are indented past `col` (or, under a key,
   * `dashAtColumn`, a list at the key's own column), else an empty value. Leaves `this.pos` where
   * the next line is looked for.
   */
  private nothingAfter(at: number, col: number, dashAtColumn: boolean): Place {
    const s = this.src;
    if (s[at] === '#' && s[at - 1] !== ' ') throw unread;
    const next = this.nextLine(at);
    const nextCol = next < 0 ? -1 : this.column(next);
    if (nextCol > col || (dashAtColumn && nextCol === col && s[next] === '-' && isBlank(s[next + 1]))) {
      this.pos = next;
      return this.below(nextCol, col);
    }
    this.pos = at;
    return { kind: 0, start: at, end: at, type: Scalar.PLAIN, value: null, exact: false };
  }

  /** A value on the lines below its key or dash, starting at `this.pos`, at column `at`, in a collection at column `col`. */
  private below(at: number, col: number): Place {
    const s = this.src;
    const ch = s[this.pos];
    if (ch === '|' || ch === '>') throw unread;
    if (ch !== '[' && ch !== '{' && ((ch === '-' && isBlank(s[this.pos + 1])) || this.isKey(this.pos))) return this.blockAt(at);
    return this.inline(col);
  }

  /** Whether the line from `at` starts with a key and its `:`. */
  private isKey(at: number): boolean {
    const s = this.src;
    const q = s[at];
    if (q === '"' || q === "'") {
      const close = this.quotedEnd(at);
      return s[close] === ':' && isBlank(s[close + 1]);
    }
    for (let i = at; ; i++) {
      const ch = s[i];
      if (isEnd(ch)) return false;
      if (ch === ':' && isBlank(s[i + 1])) return true;
      if (ch === '#' && s[i - 1] === ' ') return false;
    }
  }

  /** Into a collection: past `MAX_DEPTH`, the file is left to the library. */
  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw unread;
  }

  private map(col: number): Place {
    const s = this.src;
    this.enter();
    const value: Record<string, unknown> = {};
    const names: string[] = [];
    const keys: ScalarPlace[] = [];
    const values: Place[] = [];
    const taken = {};
    for (;;) {
      const key = this.key(false);
      const [name, property] = this.name(key, names, taken);
      // After the key, `this.pos` is on the `:`.
      let at = this.pos + 1;
      while (s[at] === ' ') at++;
      const ch = s[at];
      let node: Place;
      if (isEnd(ch) || ch === '#') {
        node = this.nothingAfter(at, col, true);
      } else {
        this.pos = at;
        node = this.inline(col);
      }
      const next = this.nextLine(this.pos);
      if (property === '__proto__') Object.defineProperty(value, property, { value: node.value, writable: true, enumerable: true, configurable: true });
      else value[property] = node.value;
      names.push(name);
      keys.push(key);
      values.push(node);
      if (next < 0) {
        this.pos = s.length;
        break;
      }
      const nextCol = this.column(next);
      if (nextCol > col) throw unread;
      this.pos = next;
      if (nextCol < col) break;
      if (!this.isKey(next)) throw unread;
    }
    this.depth--;
    return { kind: 1, value: Object.freeze(value), names, keys, values };
  }

  private seq(col: number): Place {
    const s = this.src;
    this.enter();
    const value: unknown[] = [];
    const items: Place[] = [];
    for (;;) {
      // `this.pos` is on the `-`.
      let at = this.pos + 1;
      while (s[at] === ' ') at++;
      const ch = s[at];
      let node: Place;
      if (isEnd(ch) || ch === '#') {
        node = this.nothingAfter(at, col, false);
      } else {
        this.pos = at;
        const c = this.column(at);
        if (ch === '-' && isBlank(s[at + 1])) node = this.seq(c);
        else if (ch !== '[' && ch !== '{' && ch !== '|' && ch !== '>' && this.isKey(at)) node = this.map(c);
        else node = this.inline(col);
      }
      const next = this.nextLine(this.pos);
      value.push(node.value);
      items.push(node);
      if (next < 0) {
        this.pos = s.length;
        break;
      }
      const nextCol = this.column(next);
      if (nextCol > col) throw unread;
      this.pos = next;
      if (nextCol < col || s[next] !== '-' || !isBlank(s[next + 1])) break;
    }
    this.depth--;
    return { kind: 2, value: Object.freeze(value), items };
  }

  /**
   * A key at `this.pos`, plain or quoted, on one line; leaves `this.pos` on its `:`. In a flow
   * collection (`flow`), a plain key also ends before a flow indicator.
   */
  private key(flow: boolean): ScalarPlace {
    const s = this.src;
    const start = this.pos;
    const q = s[start];
    if (q === '"' || q === "'") {
      const end = this.quotedEnd(start);
      const text = this.quoted(start, end);
      let at = end;
      while (s[at] === ' ') at++;
      if (s[at] !== ':' || (!flow && at - start > MAX_KEY)) throw unread;
      this.pos = at;
      return { kind: 0, start, end, type: q === '"' ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE, value: text, exact: true };
    }
    if (INDICATOR.has(q) && !((q === '-' || q === '?' || q === ':') && !isBlank(s[start + 1]) && !FLOW.has(s[start + 1]))) throw unread;
    let i = start;
    for (;;) {
      const ch = s[i];
      if (isEnd(ch)) throw unread;
      if (ch === ':' && (isBlank(s[i + 1]) || (flow && FLOW.has(s[i + 1])))) break;
      if (ch === '#' && s[i - 1] === ' ') throw unread;
      if (flow && FLOW.has(ch)) throw unread;
      i++;
    }
    if (!flow && i - start > MAX_KEY) throw unread;
    let end = i;
    while (s[end - 1] === ' ') end--;
    const source = s.slice(start, end);
    this.pos = i;
    return { kind: 0, start, end, type: Scalar.PLAIN, value: resolvePlain(source), exact: true };
  }

  /**
   * A value that starts on its key's or dash's line at `this.pos`, in a block collection at column
   * `col`: a scalar, a flow collection or a block scalar. Leaves `this.pos` at the end of its last line.
   */
  private inline(col: number): Place {
    const s = this.src;
    const start = this.pos;
    const ch = s[start];
    if (ch === '|' || ch === '>') return this.block(col);
    if (ch === '[' || ch === '{') {
      const node = this.flow(col);
      this.pos = this.lineEnd(this.pos);
      return node;
    }
    if (ch === '"' || ch === "'") {
      const end = this.quotedEnd(start);
      const value = this.quoted(start, end);
      this.pos = this.lineEnd(end);
      return { kind: 0, start, end, type: ch === '"' ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE, value, exact: true };
    }
    if (INDICATOR.has(ch) && !((ch === '-' || ch === '?' || ch === ':') && !isBlank(s[start + 1]))) throw unread;
    let i = start;
    for (;;) {
      const c = s[i];
      if (isEnd(c)) break;
      if (c === ':' && isBlank(s[i + 1])) throw unread;
      if (c === '#' && s[i - 1] === ' ') break;
      i++;
    }
    let end = i;
    while (s[end - 1] === ' ') end--;
    // A plain scalar going on over more indented lines is left to the library by the caller, which
    // refuses a line indented past `col` after any value.
    this.pos = this.lineEnd(end);
    const value = resolvePlain(s.slice(start, end));
    return { kind: 0, start, end, type: Scalar.PLAIN, value, exact: true };
  }

  /** Where the quoted scalar opening at `start` closes: the position after its closing quote, on the same line. */
  private quotedEnd(start: number): number {
    const s = this.src;
    const q = s[start];
    let i = start + 1;
    for (;;) {
      const ch = s[i];
      if (isEnd(ch)) throw unread;
      if (q === '"' && ch === '\\') {
        // An escaped line break: the scalar goes on over the next line.
        if (isEnd(s[i + 1])) throw unread;
        i += 2;
      } else if (ch === q) {
        if (q === "'" && s[i + 1] === "'") i += 2;
        else return i + 1;
      } else i++;
    }
  }

  private quoted(start: number, end: number): string {
    const s = this.src;
    const body = s.slice(start + 1, end - 1);
    if (s[start] === "'") return body.includes("''") ? body.replace(/''/g, "'") : body;
    if (!body.includes('\\')) return body;
    return body.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
      // The library's `String.fromCodePoint` of four hex digits: the one code unit, a half of a surrogate pair too.
      if (e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
      const c = ESCAPES.get(e);
      if (c === undefined) throw unread;
      return c;
    });
  }

  /**
   * A flow collection opening at `this.pos` in a block collection at column `col`; its lines after
   * the first must be indented past `col`. Leaves `this.pos` after its closing bracket.
   */
  private flow(col: number): Place {
    this.enter();
    const node = this.flowCollection(col);
    this.depth--;
    return node;
  }

  private flowCollection(col: number): Place {
    const s = this.src;
    const open = s[this.pos];
    const close = open === '[' ? ']' : '}';
    this.pos++;
    this.flowSpace(col);
    if (open === '[') {
      const value: unknown[] = [];
      const items: Place[] = [];
      if (s[this.pos] === ']') {
        this.pos++;
        return { kind: 2, value: Object.freeze(value), items };
      }
      for (;;) {
        const node = this.flowValue(col);
        value.push(node.value);
        items.push(node);
        this.flowSpace(col);
        if (s[this.pos] === ']') break;
        if (s[this.pos] !== ',') throw unread;
        this.pos++;
        this.flowSpace(col);
        if (s[this.pos] === ']') throw unread;
      }
      this.pos++;
      return { kind: 2, value: Object.freeze(value), items };
    }
    const value: Record<string, unknown> = {};
    const names: string[] = [];
    const keys: ScalarPlace[] = [];
    const values: Place[] = [];
    if (s[this.pos] === '}') {
      this.pos++;
      return { kind: 1, value: Object.freeze(value), names, keys, values };
    }
    const taken = {};
    for (;;) {
      const key = this.key(true);
      const [name, property] = this.name(key, names, taken);
      this.pos++;
      this.flowSpace(col);
      if (s[this.pos] === ',' || s[this.pos] === close) throw unread;
      const node = this.flowValue(col);
      if (property === '__proto__') Object.defineProperty(value, property, { value: node.value, writable: true, enumerable: true, configurable: true });
      else value[property] = node.value;
      names.push(name);
      keys.push(key);
      values.push(node);
      this.flowSpace(col);
      if (s[this.pos] === close) break;
      if (s[this.pos] !== ',') throw unread;
      this.pos++;
      this.flowSpace(col);
      if (s[this.pos] === close) throw unread;
    }
    this.pos++;
    return { kind: 1, value: Object.freeze(value), names, keys, values };
  }

  /** Spaces, line breaks and comments inside a flow collection; every line it reaches indented past `col`. */
  private flowSpace(col: number): void {
    const s = this.src;
    for (;;) {
      const ch = s[this.pos];
      if (ch === ' ') this.pos++;
      else if (ch === '\n') {
        this.pos++;
        let i = this.pos;
        while (s[i] === ' ') i++;
        if (s[i] !== '\n' && i - this.pos <= col) throw unread;
        this.pos = i;
      } else if (ch === '#') {
        if (s[this.pos - 1] !== ' ' && s[this.pos - 1] !== '\n') throw unread;
        const eol = s.indexOf('\n', this.pos);
        if (eol < 0) throw unread;
        this.pos = eol;
      } else if (ch === undefined) throw unread;
      else return;
    }
  }

  /** An item of a flow list or a value of a flow mapping: a scalar or a flow collection; never a pair. */
  private flowValue(col: number): Place {
    const s = this.src;
    const start = this.pos;
    const ch = s[start];
    let node: Place;
    if (ch === '[' || ch === '{') node = this.flow(col);
    else if (ch === '"' || ch === "'") {
      const end = this.quotedEnd(start);
      const value = this.quoted(start, end);
      this.pos = end;
      node = { kind: 0, start, end, type: ch === '"' ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE, value, exact: true };
    } else {
      if (INDICATOR.has(ch) && !((ch === '-' || ch === '?' || ch === ':') && !isBlank(s[start + 1]) && !FLOW.has(s[start + 1]))) throw unread;
      let i = start;
      for (;;) {
        const c = s[i];
        if (isEnd(c) || FLOW.has(c)) break;
        if (c === ':' && (isBlank(s[i + 1]) || FLOW.has(s[i + 1]))) throw unread;
        if (c === '#' && s[i - 1] === ' ') break;
        i++;
      }
      let end = i;
      while (s[end - 1] === ' ') end--;
      // Ended by a line break or a comment: a plain scalar may go on over the next line.
      if (!FLOW.has(s[i])) throw unread;
      this.pos = end;
      const value = resolvePlain(s.slice(start, end));
      node = { kind: 0, start, end, type: Scalar.PLAIN, value, exact: true };
    }
    const after = s[this.pos];
    if (after === ':') throw unread;
    return node;
  }

  /**
   * A `|` or `>` block scalar whose header is at `this.pos`, in a collection at column `col`: its
   * extent found as the library's lexer finds it, its value as its composer makes it.
   */
  private block(col: number): Place {
    const s = this.src;
    const start = this.pos;
    const literal = s[start] === '|';
    let i = start + 1;
    let chomp = '';
    if (s[i] === '-' || s[i] === '+') chomp = s[i++];
    if (!isBlank(s[i]) && s[i] !== '#') throw unread;
    const eol = this.lineEnd(i);
    if (eol >= s.length) throw unread;
    const body = eol + 1;
    // The lexer: the first line with more than spaces sets the indentation, when it is past `col`.
    let nl = body - 1;
    let indent = 0;
    let j = body;
    for (; j < s.length; j++) {
      const ch = s[j];
      if (ch === ' ') indent++;
      else if (ch === '\n') {
        nl = j;
        indent = 0;
      } else break;
    }
    if (indent > col) {
      const need = indent;
      for (;;) {
        let k = nl + 1;
        let sp = 0;
        while (s[k] === ' ') {
          sp++;
          k++;
        }
        if (!(s[k] === '\n' || sp >= need)) break;
        nl = s.indexOf('\n', k);
        if (nl < 0) break;
      }
      if (nl < 0) nl = s.length;
    }
    if (chomp !== '+') {
      for (;;) {
        let k = nl - 1;
        const last = k;
        while (s[k] === ' ') k--;
        if (s[k] === '\n' && k >= body && k + 1 + indent > last) nl = k;
        else break;
      }
    } else throw unread;
    const end = Math.min(nl + 1, s.length);
    const source = s.slice(body, end);
    const value = blockValue(source, literal, chomp, indent > col);
    this.pos = end;
    // The block ends its last line: the reader goes on from that line's end.
    if (this.pos > 0 && s[this.pos - 1] === '\n') this.pos--;
    return { kind: 0, start, end, type: literal ? Scalar.BLOCK_LITERAL : Scalar.BLOCK_FOLDED, value, exact: true };
  }
}

const ESCAPES = new Map([
  ['\\', '\\'],
  ['"', '"'],
  ['/', '/'],
  ['n', '\n'],
  ['t', '\t'],
]);

/** The value of a block scalar's lines, as the yaml library's `resolveBlockScalar` makes it (no indentation indicator). */
function blockValue(source: string, literal: boolean, chomp: string, content: boolean): string {
  const lines = splitLines(source);
  let chompStart = lines.length;
  for (let i = lines.length - 1; i >= 0; --i) {
    if (lines[i][1] === '') chompStart = i;
    else break;
  }
  if (chompStart === 0 || !content) {
    if (chompStart !== 0) throw unread;
    return '';
  }
  let trimIndent = 0;
  let contentStart = 0;
  for (let i = 0; i < chompStart; ++i) {
    const [indent, text] = lines[i];
    if (text === '') {
      if (indent.length > trimIndent) trimIndent = indent.length;
    } else {
      // More-indented leading empty lines: an error the library reports.
      if (indent.length < trimIndent) throw unread;
      trimIndent = indent.length;
      contentStart = i;
      break;
    }
  }
  for (let i = lines.length - 1; i >= chompStart; --i) if (lines[i][0].length > trimIndent) chompStart = i + 1;
  let value = '';
  let sep = '';
  let prevMoreIndented = false;
  for (let i = 0; i < contentStart; ++i) value += lines[i][0].slice(trimIndent) + '\n';
  for (let i = contentStart; i < chompStart; ++i) {
    const [indent, text] = lines[i];
    if (text && indent.length < trimIndent) throw unread;
    if (literal) {
      value += sep + indent.slice(trimIndent) + text;
      sep = '\n';
    } else if (indent.length > trimIndent) {
      if (sep === ' ') sep = '\n';
      else if (!prevMoreIndented && sep === '\n') sep = '\n\n';
      value += sep + indent.slice(trimIndent) + text;
      sep = '\n';
      prevMoreIndented = true;
    } else if (text === '') {
      if (sep === '\n') value += '\n';
      else sep = '\n';
    } else {
      value += sep + text;
      sep = ' ';
      prevMoreIndented = false;
    }
  }
  if (chomp !== '-') value += '\n';
  return value;
}

function splitLines(source: string): Array<[string, string]> {
  const split = source.split(/\n( *)/);
  const first = split[0];
  const m = /^( *)/.exec(first);
  const lines: Array<[string, string]> = [m?.[1] ? [m[1], first.slice(m[1].length)] : ['', first]];
  for (let i = 1; i < split.length; i += 2) lines.push([split[i], split[i + 1]]);
  return lines;
}
