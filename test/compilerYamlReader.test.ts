import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { compile, CompileSession } from '../compiler/index.ts';
import { readYaml, type Place } from '../compiler/yamlReader.ts';
import { frozenValue } from '../compiler/yamlValue.ts';
import { seeded } from './helpers/rulesTexts.ts';

/**
 * The compiler reads pack files with its own reader (compiler/yamlReader.ts) and leaves what it does
 * not read to the yaml library: what it reads must be what the library reads — the same value, key
 * order included, the same range and style for every scalar, and no error the library would find —
 * for every YAML file of the repository and for seeded mutations of them.
 */

const docOf = (text: string) => parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' });

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const files = ['content', 'test', 'examples'].flatMap(yamlFiles);
const texts = files.map((path) => ({ path, text: readFileSync(path, 'utf8') }));
/** A file as written on Windows: CRLF line ends, with or without a byte order mark. */
const crlf = (text: string) => text.replace(/\n/g, '\r\n');
const variants = texts.flatMap((f) => [
  { path: `${f.path} (CRLF)`, text: crlf(f.text) },
  { path: `${f.path} (BOM)`, text: `\ufeff${f.text}` },
  { path: `${f.path} (BOM, CRLF)`, text: `\ufeff${crlf(f.text)}` },
]);

/** What differs between the reader's reading of `text` and the library's, or `undefined` when the reader left it to the library. */
function differences(text: string): string[] | undefined {
  const read = readYaml(text);
  if (!read) return undefined;
  const doc = docOf(text);
  if (doc.errors.length) return [`the library finds an error: ${doc.errors[0].message}`];
  // The library's own conversion as well as the compiler's: one piece of project code agreeing with another proves less.
  for (const value of [frozenValue(doc), doc.toJS()]) {
    if (!isDeepStrictEqual(value, read.value) || JSON.stringify(value) !== JSON.stringify(read.value)) return [`values differ: ${JSON.stringify(value)} against ${JSON.stringify(read.value)}`];
  }
  const found: string[] = [];
  const walk = (node: unknown, place: Place, path: string) => {
    if (place.kind === 0) {
      if (!isScalar(node)) found.push(`${path}: a scalar where the library has a collection`);
      else if (place.exact && (node.range?.[0] !== place.start || node.range?.[1] !== place.end || node.type !== place.type || !Object.is(node.value, place.value))) {
        found.push(`${path}: ${JSON.stringify([node.range?.slice(0, 2), node.type, node.value])} against ${JSON.stringify([[place.start, place.end], place.type, place.value])}`);
      }
    } else if (place.kind === 1) {
      if (!isMap(node) || node.items.length !== place.names.length) return void found.push(`${path}: not the library's mapping`);
      node.items.forEach((pair, i) => {
        if (!isScalar(pair.key) || String(pair.key.value) !== place.names[i]) found.push(`${path}: key ${i} is not \`${place.names[i]}\``);
        walk(pair.key, place.keys[i], `${path}/${place.names[i]} (key)`);
        walk(pair.value, place.values[i], `${path}/${place.names[i]}`);
      });
    } else {
      if (!isSeq(node) || node.items.length !== place.items.length) return void found.push(`${path}: not the library's list`);
      node.items.forEach((item, i) => walk(item, place.items[i], `${path}/${i}`));
    }
  };
  walk(doc.contents, read.root, '');
  return found;
}

/** Pieces a mutation puts in: YAML's indicators, scalars of each core type, indentation. */
const pieces = [' ', '\n', ':', ': ', '- ', '#', ' #', '"', "'", "''", '[', ']', '{', '}', ', ', '|', '>', '|-', '>-', '|+', '  ', '\n  ', '\n    ', '\n- ', 'a', '1', '-1', '~', 'null', 'Null', 'true', 'False', '0x1F', '0o17', '1e3', '.5', '.inf', '-.Inf', '.nan', '\\', '\\n', '\\u00e9', '\\x41', '&a ', '*a', '!!str ', '? ', '---\n', '...\n', '%YAML 1.2\n', '\t', '\r\n', '__proto__: ', '<<: ', 'é', '\u2028', '\\\n', '\ufeff', '\r', 'x\ty', '\t#', ':\t', '-\t', ']#', '}#', '?\t', '{\t', '\t}', ',\t', '\t,', 'k'.repeat(1020), ' '.repeat(30)];

/** A text with one to three pieces inserted, characters deleted, or a line's indentation changed. */
function mutate(text: string, random: () => number): string {
  let t = text;
  const edits = 1 + Math.floor(random() * 3);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(random() * t.length);
    const kind = random();
    if (kind < 0.4) t = t.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + t.slice(at);
    else if (kind < 0.7) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(random() * 3));
    else {
      const nl = t.indexOf('\n', at);
      if (nl >= 0) t = t.slice(0, nl + 1) + ' '.repeat(Math.floor(random() * 3)) + t.slice(nl + 1 + Math.floor(random() * 3));
    }
  }
  return t;
}

describe('the pack files reader', () => {
  it('reads every YAML file of the repository as the library does', () => {
    const read = texts.filter((f) => {
      const found = differences(f.text);
      expect({ path: f.path, found }).toEqual({ path: f.path, found: found && [] });
      return found !== undefined;
    });
    // The shipped packs are read without the library: a compile that fell back to it would cost twice as much.
    expect(texts.filter((f) => f.path.startsWith('content/') && !read.includes(f)).map((f) => f.path)).toEqual([]);
  });

  it('reads every YAML file of the repository written with CRLF line ends or a byte order mark as the library does, ranges in the file as written', () => {
    const left = variants.filter((f) => {
      const found = differences(f.text);
      expect({ path: f.path, found }).toEqual({ path: f.path, found: found && [] });
      return found === undefined;
    });
    // A modder's file saved on Windows is read as fast as the same file with LF line ends, but for
    // a list right after a byte order mark, which the library fails (a scenario file's form).
    const leftAsIs = new Set(texts.filter((f) => !readYaml(f.text)).map((f) => f.path));
    const leftToo = (f: { path: string; text: string }) => leftAsIs.has(f.path.replace(/ \(.*\)$/, '')) || f.text.startsWith('\ufeff-');
    expect(left.filter((f) => !leftToo(f)).map((f) => f.path)).toEqual([]);
    expect(variants.filter((f) => f.path.startsWith('content/') && left.includes(f)).map((f) => f.path)).toEqual([]);
  });

  it('reads seeded mutations of them as the library does, or leaves them to it', () => {
    const random = seeded(12);
    const small = texts.filter((f) => f.text.length < 20000);
    let readCount = 0;
    for (let k = 0; k < 4000; k++) {
      const original = small[Math.floor(random() * small.length)].text;
      // A third as written on Windows, mutated after: a piece put in brings its own line ends.
      const written = k % 3 === 0 ? original : k % 3 === 1 ? crlf(original) : `\ufeff${crlf(original)}`;
      const text = mutate(written, random);
      const found = differences(text);
      if (found) readCount++;
      expect({ k, text, found }).toEqual({ k, text, found: found && [] });
    }
    // Most mutations leave a valid file; those the reader reads are what this test is about.
    expect(readCount).toBeGreaterThan(1000);
  });

  it('reads keys and scalars of every core type, nested and compact collections, blocks and flows as the library does', () => {
    const within = [
      'a b: c d\n"quoted key": x\n\'single\': \'it\'\'s\'\n',
      '1: one\n2.0: two\n0x10: hex\n.inf: inf\ntrue: t\nnull: n\né: ü\n',
      'a: -1\nb: +2\nc: .5\nd: 1e3\ne: 0o17\nf: ~\ng: null\nh: Null\ni: 00\nj: 08\nk: 1_000\nl: .NaN\n',
      'a: :x\nb: -x\nc: ?x\nd: x:y\ne: x,y\nf: "esc \\" \\\\ \\n \\t \\u00e9"\n',
      'a:\n- 1\n- 2\nb: 3\nc:\n  - d: 1\n    e: 2\n  -\n  - - f\n    - g\n',
      'a: [1, [2, 3], {b: c}, [ ], {}]\nb: { c: "d", e: \'f\', "g":1, h: [x y, z] }\nc:\n  { i: 1,\n    j: 2 }\n',
      'a: |\n  x\n   y\n\n  z\n\nb: >\n  x\n  y\n\n  z\n   w\nc: |-\n  x\n\nd: >-\n  x\n# c\ne: |\n  v',
      '__proto__: 1\na: { __proto__: 1, toString: 2 }\nb:   \nc: x # c\n  # indented comment\nd: "y" # c\n',
      // Keys up to the library's limit, and a flow mapping's, which has none.
      `${'k'.repeat(990)}: 1\n"${'q'.repeat(990)}": 2\n`,
      `a: { ${'k'.repeat(1100)}: 1, "${'q'.repeat(1100)}": 2 }\n`,
      `a: ${'['.repeat(200)}${']'.repeat(200)}\nb:\n${'- '.repeat(200)}x\n`,
      // A folded block's blank line before a more indented line is kept as a line break.
      'a: >\n  x\n\n   y\n  z\nb: >\n  x\n\n\n   y\n\n  z\nc: >-\n  x\n   y\n\n  z\n\n   w\n  v\n',
      // CRLF line ends and a byte order mark: the ranges are in the file as written.
      'a: 1\r\nb: "x" # c\r\nc: |\r\n  l1\r\n  l2\r\n\r\nd: >\r\n  f1\r\n  f2\r\n\r\n  f3\r\ne: [1,\r\n  2]\r\nf:\r\n  - x # c\r\n  -\r\n',
      '\ufeffa: 1\nb:\n  - c\n',
      '\ufeff# c\r\na: { b: 1 }\r\n',
      'a: 1\r\nb: 2',
      // A tab between two characters of a scalar's text is text.
      'a b: x\ty\n"p\tq": \'r\ts\'\nc: |\n  u\tv\nd: [e\tf, {g\th: i\tj}]\n# k\tl\n',
      // Escapes of the halves of a surrogate pair, together and alone.
      'a: "\\ud83d\\ude00"\nb: "\\ud800"\nc: "\\uDFFF x"\n',
    ];
    for (const text of within) expect({ text, found: differences(text) }).toEqual({ text, found: [] });
  });

  it('leaves to the library what is outside the subset it reads', () => {
    const outside = [
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: one\n  two\n',
      'a: "one\n  two"\n',
      // A backslash ending a line in double quotes escapes the line break: a multi-line scalar.
      'a: "x\\\n  b"\n',
      'a: [ "x\\\n  b" ]\n',
      '"x\\\n  b": 1\n',
      'a: "x\\\nb"\n',
      // The library allows 1024 characters from an implicit block key's start to its `:`.
      `${'k'.repeat(1100)}: 1\n`,
      `${'k'.repeat(1000)}${' '.repeat(30)}: 1\n`,
      `"${'k'.repeat(1100)}": 1\n`,
      `'${'k'.repeat(1100)}': 1\n`,
      `"${'k'.repeat(990)}"${' '.repeat(40)}: 1\n`,
      `- "${'k'.repeat(1100)}": 1\n`,
      `a:\n  - ${'k'.repeat(1000)}${' '.repeat(30)}: 1\n`,
      // Nested deeper than the reader goes: how deep the library can go depends on the stack left.
      `a: ${'['.repeat(300)}${']'.repeat(300)}\n`,
      `a: ${'{b: '.repeat(300)}1${'}'.repeat(300)}\n`,
      `${'- '.repeat(300)}x\n`,
      Array.from({ length: 300 }, (_, i) => `${' '.repeat(i)}k:\n`).join('') + `${' '.repeat(300)}x\n`,
      'a: 1\na: 2\n',
      'a:\n\t- 1\n',
      // A tab the library may take for a space.
      'a:\tb\n',
      'a: b\t\n',
      'a: b\t# c\n',
      'a: b \tc\n',
      '-\ta\n',
      'a: [b\t]\n',
      'a: [\tb]\n',
      'a\t: b\n',
      'a: |\t\n  x\n',
      '- ?\tb\n',
      'a: [x\t, y]\n',
      'a: [x,\ty]\n',
      'a: {\tb: 1}\n',
      'a: {b: c\t}\n',
      // A carriage return not before a line feed, a byte order mark not at the start.
      'a: 1\rb: 2\n',
      'a: 1\r\r\nb: 2\n',
      'a: 1\n\ufeffb: 2\n',
      '\ufeff\ufeffa: 1\n',
      '%YAML 1.1\n---\na: 1\n',
      '\ufeff%YAML 1.1\n---\na: 1\n',
      '\ufeff---\r\na: 1\r\n',
      '\ufeff- a\n',
      'a: [1, 2]# c\n',
      'a: { b: 1 }# c\n',
      'a: [1, "x"# c\n  ]\n',
      'a: 1\n---\nb: 2\n',
      '? a\n: 1\n',
      '<<: { a: 1 }\n',
      'a: |2\n   x\n',
      'a: |+\n  x\n\n',
      'a: [1, 2,]\n',
      'a: { b }\n',
      'plain text\n',
      '',
    ];
    expect(outside.filter((text) => readYaml(text) !== undefined)).toEqual([]);
  });

  it('reads a mapping of 50,000 keys, and leaves one with a key written twice among them to the library', () => {
    const keys = Array.from({ length: 50000 }, (_, i) => `k${i}: ${i}\n`).join('');
    const read = readYaml(keys);
    expect(Object.keys(read?.value as object).length).toBe(50000);
    expect(readYaml(`${keys}k49999: 0\n`)).toBeUndefined();
  });

  it('gives the same text the same diagnostics on every compile, alone or in a session', () => {
    const manifest = { path: 'pack.yaml', text: 'id: t\nversion: 1.0.0\nname: { en: T }\nlanguages: [en]\nplayers: { min: 1, max: 2 }\n' };
    // Texts the reader once read where the library finds an error: a later pass asking for the
    // library's document must not turn the next compile's diagnostics into that error.
    const texts = [`- "${'k'.repeat(1100)}": 1\n`, '- "a\\\n  b"\n', `- ${'['.repeat(2000)}${']'.repeat(2000)}\n`, `- ${'k'.repeat(1000)}${' '.repeat(30)}: 1\n`];
    const seen = (r: ReturnType<typeof compile>) => r.diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.message]);
    for (const text of texts) {
      const files = [manifest, { path: 'a.yaml', text }];
      const first = seen(compile(files));
      expect(first.length).toBeGreaterThan(0);
      expect({ text, again: seen(compile(files)) }).toEqual({ text, again: first });
      const session = new CompileSession();
      expect({ text, session: [seen(session.compile(files)), seen(session.compile(files))] }).toEqual({ text, session: [first, first] });
    }
  });

  it('gives a pack written with CRLF line ends and a byte order mark the same diagnostics, at the same lines and columns', () => {
    // An unknown key on the first line (after the mark, where a column is easily one too far), a
    // misspelled key in the YAML, and a rules block's unknown field on its 39th line.
    const game = `enumz:\n  x: [a]\n${readFileSync('test/packs/tiny/game.yaml', 'utf8').replace('s.owner = me', 's.owner = me\n    s.bogus = 3').replace('terrain:', 'terain:')}`;
    const pack = readFileSync('test/packs/tiny/pack.yaml', 'utf8');
    const seen = (write: (text: string) => string) =>
      compile([
        { path: 'pack.yaml', text: write(pack) },
        { path: 'game.yaml', text: write(game) },
      ]).diagnostics.map((d) => [d.code, d.file, d.line, d.column, d.endLine, d.endColumn]);
    const lf = seen((t) => t);
    expect(lf.map((d) => [d[0], d[2]])).toEqual([
      ['RB0101', 1],
      ['RB0207', 10],
      ['RB0523', 39],
    ]);
    expect(lf[0]).toEqual(['RB0101', 'game.yaml', 1, 1, 1, 6]);
    const folded = (t: string) => t.replace('rules: |', 'rules: >');
    for (const write of [crlf, (t: string) => `\ufeff${crlf(t)}`, (t: string) => `\ufeff${t}`]) {
      expect(seen(write)).toEqual(lf);
      expect(seen((t) => write(folded(t)))).toEqual(seen(folded));
    }
  });

  it('gives a compile the diagnostics of the library where it leaves a file to it', () => {
    const manifest = { path: 'pack.yaml', text: 'id: t\nversion: 1.0.0\nname: { en: T }\nlanguages: [en]\nplayers: { min: 1, max: 2 }\n' };
    const r = compile([manifest, { path: 'a.yaml', text: 'enums:\n  colour: [red]\n  colour: [blue]\n' }]);
    expect(r.diagnostics.map((d) => [d.code, d.file, d.line, d.column])).toEqual([['RB0010', 'a.yaml', 3, 3]]);
  });
});
