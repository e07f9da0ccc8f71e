/**
 * Sizes and parsing: files too large to be pack or scenario files, YAML alias bombs, YAML nested
 * past what a pack file may hold, a mapping of tens of thousands of keys, a value where JavaScript
 * expects text, expressions and blocks nested past the call stack, a huge comment block, an absurd
 * number of players. Each is refused with a positioned diagnostic, never RB9000, and the large ones
 * run in a child process held to 512 MB and 10 s.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile, type Diagnostic } from '../../compiler/index.ts';
import { MAX_NESTING } from '../../compiler/load.ts';
import { readScenarioFile } from '../../scenario/read.ts';
import { rulebook } from '../helpers/cli.ts';
import { budget, MANIFEST, expectPositioned, rulebookChild, tempFolder, writeFiles } from './harness.ts';

// A child process starts tsx and the whole CLI: its own 60 s bound allows for a loaded machine.
const child = { timeout: 70_000 };
const root = tempFolder('sizes');
const FLOW = '  action pass "Pass" { }\n  flow {\n    for p in players {\n      turn p {\n        offer p: pass\n      }\n    }\n  }\n';

function compiled(game: string, manifest = MANIFEST()): { diagnostics: Diagnostic[]; texts: Record<string, string> } {
  const texts = { 'pack.yaml': manifest, 'game.yaml': game };
  const r = compile(Object.entries(texts).map(([path, text]) => ({ path, text })));
  expect(r.diagnostics.filter((d) => d.code === 'RB9000')).toEqual([]);
  return { diagnostics: r.diagnostics, texts };
}

const one = (ds: Diagnostic[], code: string) => ds.find((d) => d.code === code);

describe('files too large', () => {
  it('a 50 MB pack file is not read: RB0007, in a child process held to 512 MB', child, () => {
    const dir = writeFiles(join(root, 'huge'), { 'pack.yaml': MANIFEST('huge'), 'game.yaml': 'kinds: {}\n' });
    writeFileSync(join(dir, 'cards.yaml'), `# ${'x'.repeat(99)}\n`.repeat(500_000));
    const r = rulebookChild(['check', dir]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/cards\.yaml:1:1: error RB0007: this file is 4\d\.\d MB, more than a pack file may be \(2\.0 MB\)/);
  });

  it('a 3 MB file given to the compiler directly is RB0007 at its first line', budget, () => {
    const { diagnostics, texts } = compiled(`kinds: {}\n${'# filler line\n'.repeat(250_000)}`);
    expectPositioned(one(diagnostics, 'RB0007'), texts);
  });

  it('a scenario file of 2.6 MB is refused before it is parsed', budget, () => {
    const file = readScenarioFile({ path: 'big.yaml', text: `scenario: big\nsetup:\n${'  a.b: 1\n'.repeat(330_000)}` });
    expect(file.problems[0].message).toMatch(/this scenario file is 2\.\d MB, more than a scenario file may be/);
    expect(file.problems[0].at.line).toBe(1);
  });

  it('the compiler leaves `scenarios/` alone: a broken scenario does not fail the pack', budget, async () => {
    const dir = join(root, 'tiny-broken-scenario');
    cpSync('test/packs/tiny', dir, { recursive: true });
    writeFileSync(join(dir, 'scenarios', 'broken.yaml'), 'scenario: [unclosed\n  : : :\n');
    const r = await rulebook(['check', dir]);
    expect(r.out).toContain(': ok');
    expect(r.code).toBe(0);
  });
});

describe('YAML alias bombs', () => {
  const bomb = 'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n';

  it('in a pack file: RB0012 at the file, no billion values', budget, () => {
    const { diagnostics, texts } = compiled(bomb);
    const d = one(diagnostics, 'RB0012');
    expectPositioned(d, texts);
    expect(d!.hint).toMatch(/alias/);
  });

  it('in a scenario file: a problem at its first line, not a stack trace', budget, async () => {
    const file = readScenarioFile({ path: 'bomb.yaml', text: `scenario: bomb\npack: tiny\n${bomb.replace(/^(\w):/gm, 'x$1:')}` });
    expect(file.problems.map((p) => p.message).join('\n')).toMatch(/this YAML cannot be read: .*alias/i);
    const dir = writeFiles(join(root, 'bomb-scenarios'), { 'bomb.yaml': `scenario: bomb\npack: tiny\nsetup:\n${bomb.replace(/^/gm, '  ')}` });
    cpSync('test/packs/tiny', join(dir, 'tiny'), { recursive: true });
    const r = await rulebook(['test', join(dir, 'bomb.yaml')]);
    expect(r.err).not.toContain('    at ');
    expect(r.out + r.err).toMatch(/bomb\.yaml:1:1/);
  });
});

describe('values and nesting', () => {
  it('`{ toString: false }` where a text belongs: RB0218, not RB9000', budget, () => {
    const { diagnostics, texts } = compiled('kinds:\n  card:\n    props: { title: text }\nentities:\n  - card: c1\n    title: { toString: false }\n');
    const d = one(diagnostics, 'RB0218');
    expectPositioned(d, texts);
    expect(d!.line).toBe(6);
  });

  it('`{ toString: false }` as an entity\'s id: RB0204, not RB9000 (found by the fuzzer)', budget, () => {
    const { diagnostics, texts } = compiled('kinds:\n  card:\n    props: { n: number }\nentities:\n  - card: { toString: false }\n    n: 1\n');
    const d = one(diagnostics, 'RB0204');
    expectPositioned(d, texts);
    expect(d!.line).toBe(5);
  });

  it('a `1 + 1 + …` chain of 2,000 terms: RB0302 at the deep end, not RB9000', budget, () => {
    const { diagnostics, texts } = compiled(`rules: |\n  fn f(): number = ${Array(2000).fill('1').join(' + ')}\n${FLOW}`);
    const d = one(diagnostics, 'RB0302');
    expectPositioned(d, texts);
    expect(d!.line).toBe(2);
  });

  it('brackets 1,000 deep: a syntax error in the author\'s words', budget, () => {
    const { diagnostics, texts } = compiled(`rules: |\n  fn f(): number = ${'('.repeat(1000)}1${')'.repeat(1000)}\n${FLOW}`);
    const d = one(diagnostics, 'RB0301') ?? one(diagnostics, 'RB0302');
    expectPositioned(d, texts);
    expect(d!.message).not.toMatch(/call stack/);
  });

  it('a comment block of 400,000 lines inside the rules: no RB9000', budget, () => {
    const { diagnostics } = compiled(`rules: |\n${'  #\n'.repeat(400_000)}  fn f(): number = 1\n${FLOW}`);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('`players.max: 50000000` is refused by the manifest schema', budget, () => {
    const manifest = 'id: test\nversion: 0.1.0\nname: { en: Test }\nlanguages: [en]\nplayers: { min: 1, max: 50000000 }\n';
    const { diagnostics, texts } = compiled('kinds: {}\n', manifest);
    const d = diagnostics.find((x) => x.file === 'pack.yaml' && /players\.max/.test(x.message));
    expectPositioned(d, texts);
    expect(d!.message).toMatch(/64/);
  });
});

describe('YAML mappings of many keys', () => {
  // The yaml library's own check of keys written twice compares each key with every key before it:
  // 40,000 keys in one mapping took 21 s to parse. compiler/load.ts checks them by a set instead.
  it('40,000 keys in one mapping the reader leaves to the library, two written twice: RB0010 at each', budget, () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => `k${i}: ${i}\n`).join('');
    // The anchor leaves the file to the library.
    const { diagnostics, texts } = compiled(`a: &x 1\n${keys}k5: 0\nk39999: *x\n`);
    const twice = diagnostics.filter((d) => d.code === 'RB0010');
    for (const d of twice) expectPositioned(d, texts);
    expect(twice.map((d) => [d.line, d.message])).toEqual([
      [40_002, 'the key `k5` appears twice in this mapping'],
      [40_003, 'the key `k39999` appears twice in this mapping'],
    ]);
  });

  it('40,000 keys in the manifest, its id written again after them: RB0010 at it', budget, () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => `k${i}: ${i}\n`).join('');
    const { diagnostics, texts } = compiled('kinds: {}\n', MANIFEST('many', `${keys}id: again\n`));
    const twice = diagnostics.filter((d) => d.code === 'RB0010');
    for (const d of twice) expectPositioned(d, texts);
    expect(twice.map((d) => [d.file, d.line, d.column, d.message])).toEqual([['pack.yaml', 40_006, 1, 'the key `id` appears twice in this mapping']]);
  });

  it('40,000 keys in one mapping of a scenario file, two written twice: a problem at each, as at one written twice in a small file', budget, () => {
    const keys = Array.from({ length: 40_000 }, (_, i) => `  k${i}.n: ${i}\n`).join('');
    const text = `scenario: many keys\npack: tiny\nplayers: 2\nsetup:\n${keys}  k5.n: 0\n  k39999.n: 1\n`;
    const file = readScenarioFile({ path: 'many.yaml', text });
    const small = readScenarioFile({ path: 'many.yaml', text: 'scenario: few keys\nsetup:\n  k5.n: 1\n  k5.n: 0\n' }).problems[0];
    expect(small).toEqual({ at: { file: 'many.yaml', line: 4, column: 3, offset: 38, length: 1 }, message: 'this YAML is malformed: Map keys must be unique', excerpt: '  k5.n: 0', hint: 'each key may appear once in a mapping' });
    expect(file.scenarios).toEqual([]);
    expect(file.problems).toEqual([
      { ...small, at: { ...small.at, line: 40_005, offset: text.indexOf('\n  k5.n: 0\n', text.indexOf('k5.n: 5')) + 3 } },
      { ...small, at: { ...small.at, line: 40_006, offset: text.indexOf('\n  k39999.n: 1\n') + 3 }, excerpt: '  k39999.n: 1' },
    ]);
  });
});

// The yaml library's `toJS` writes a list or mapping used as a key out as text at every level it is
// nested: `? ? … x` of 802 bytes took 52 s, and a scenario file of 2 kB ran the process out of
// memory. compiler/load.ts `documentOf` refuses such a key before any value is asked for.
describe('YAML lists and mappings as keys', () => {
  const message = 'this YAML is malformed: a list or mapping is written here as a key';

  it('a list and a mapping as keys in a pack file: RB0001 at each, with the way to write it', budget, () => {
    const { diagnostics, texts } = compiled('kinds: {}\n[a, b]: 1\nc:\n  {d: 1}: 2\n');
    const keys = diagnostics.filter((d) => d.file === 'game.yaml');
    for (const d of keys) expectPositioned(d, texts);
    expect(keys.map((d) => [d.code, d.line, d.column, d.message])).toEqual([
      ['RB0001', 2, 1, message],
      ['RB0001', 4, 3, message],
    ]);
    expect(keys[0].hint).toMatch(/^a key is a single word or quoted text.*belongs in the value after the key, e\.g\. `name: \[a, b\]`$/);
  });

  it('keys nested 500 deep (`? ? … x`) in a pack file: one RB0001 at the outermost', budget, () => {
    const { diagnostics, texts } = compiled(`kinds: {}\n${'? '.repeat(500)}x\n`);
    const keys = diagnostics.filter((d) => d.file === 'game.yaml');
    expectPositioned(keys[0], texts);
    expect(keys.map((d) => [d.code, d.line, d.column, d.message])).toEqual([['RB0001', 2, 3, message]]);
  });

  it('keys nested 1,000 deep in a scenario file: a problem at the outermost first', budget, () => {
    const file = readScenarioFile({ path: 'keys.yaml', text: `scenario: keys\nsetup:\n  ${'? '.repeat(1000)}x\n` });
    expect(file.scenarios).toEqual([]);
    expect(file.problems[0]).toMatchObject({ at: { file: 'keys.yaml', line: 3, column: 5 }, message, hint: expect.stringMatching(/^a key is a single word/) });
  });
});

function deepYaml(text: string): { d: Diagnostic | undefined; all: Diagnostic[]; texts: Record<string, string> } {
  const texts = { 'pack.yaml': MANIFEST(), 'deep.yaml': text };
  const all = compile(Object.entries(texts).map(([path, t]) => ({ path, text: t }))).diagnostics;
  expect(all.filter((d) => d.code === 'RB9000')).toEqual([]);
  return { d: all.find((d) => d.file === 'deep.yaml'), all, texts };
}

// Tens of thousands of compact `- - -` levels made the yaml library abort the whole process out of
// memory: compiler/load.ts refuses a file nested past MAX_NESTING before either parser runs.
describe('YAML nested past the limit', () => {
  it('a pack of files 100,001 and 50,001 compact `- ` levels deep is refused, not a crash of the process', child, () => {
    const dir = writeFiles(join(root, 'deep-compact'), { 'pack.yaml': MANIFEST('compact'), 'a.yaml': `${'- '.repeat(100_001)}x\n`, 'b.yaml': `${'- '.repeat(50_001)}x\n` });
    const r = rulebookChild(['check', dir]);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/a\.yaml:1:1001: error RB0001: this YAML is malformed: this line is indented past column 1000/);
    expect(r.out).toMatch(/b\.yaml:1:1001: error RB0001/);
    expect(r.out).not.toMatch(/RB9000/);
  });

  it('flow brackets opened past the limit are refused where the one too many opens', budget, () => {
    const text = `a: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`;
    const { d, texts } = deepYaml(text);
    expectPositioned(d, texts);
    expect([d?.code, d?.line, d?.column, d?.message]).toEqual(['RB0001', 1, 4 + MAX_NESTING, `this YAML is malformed: more than ${MAX_NESTING} \`[\` and \`{\` are open here, lists and mappings inside each other deeper than the ${MAX_NESTING} levels a pack file may nest (the file is not read)`]);
    expect(d?.hint).toMatch(/^close each `\[` with `\]` and each `\{` with `\}`/);
  });

  it('mappings indented past the limit are refused on the line that passes it', budget, () => {
    const text = Array.from({ length: 1100 }, (_, i) => `${' '.repeat(i)}k${i}:\n`).join('');
    const { d, texts } = deepYaml(text);
    expectPositioned(d, texts);
    expect([d?.code, d?.line, d?.column]).toEqual(['RB0001', MAX_NESTING + 2, MAX_NESTING + 1]);
    expect(d?.message).toBe(`this YAML is malformed: this line is indented past column ${MAX_NESTING} (its \`- \` items counted), lists and mappings inside each other deeper than the ${MAX_NESTING} levels a pack file may nest (the file is not read)`);
    expect(d?.hint).toMatch(/^write the deep part as entries side by side at a shallower indentation/);
  });

  it('brackets closed as they go, and nesting up to the limit, are left to the parsers', budget, () => {
    const within = [`b: [${'[], '.repeat(5000)}[]]\n`, `a: ${'['.repeat(MAX_NESTING)}${']'.repeat(MAX_NESTING)}\n`, `${' '.repeat(MAX_NESTING - 1)}x: 1\n`, `${'- '.repeat(MAX_NESTING / 2)}x\n`];
    for (const text of within) {
      const { all } = deepYaml(text);
      expect({ text: text.slice(0, 20), refused: all.filter((d) => /levels a pack file may nest/.test(d.message)) }).toEqual({ text: text.slice(0, 20), refused: [] });
    }
    expect(deepYaml(`b: [${'[], '.repeat(5000)}[]]\n`).all.filter((d) => d.file === 'deep.yaml' && d.code.startsWith('RB00'))).toEqual([]);
  });
});
