import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { compile, type CompileOptions, type SourceFile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';

/**
 * Whatever an author types, the compiler answers: it returns (never throws, never reports its own
 * crash RB9000), it finishes (a hang fails the test at its timeout; wall-clock time is not
 * asserted, so a busy machine cannot fail it), and every diagnostic points at a real place of a
 * file the author gave it, with a code and a message.
 *
 * `RUNS=2000 npx vitest run test/compiler-robustness.test.ts` searches harder.
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const tiny = readPackFolder(`${root}test/packs/tiny`);
const smallworld = readPackFolder(`${root}content/smallworld-wow`);
const teamsDir = `${root}content/smallworld-wow-teams`;
const teams = readPackFolder(teamsDir);
const teamsDeps = dependenciesOf(teamsDir, teams);
const scale = Number(process.env.RUNS ?? 0) / 150 || 1;
const runs = (n: number) => Math.max(1, Math.round(n * scale));
/** Per test: generous, as the Small World pack takes a fraction of a second to compile. */
const TIMEOUT = 60_000 * scale;

function compileChecked(files: SourceFile[], options: CompileOptions = {}): void {
  let result: ReturnType<typeof compile>;
  try {
    result = compile(files, options);
  } catch (err) {
    throw new Error(`compile threw: ${(err as Error).stack}`);
  }
  // A base pack's files are named `<id>:<path>`.
  const texts = new Map([...files.map((f) => [f.path, f.text] as const), ...Object.entries(options.dependencies ?? {}).flatMap(([id, fs]) => fs.map((f) => [`${id}:${f.path}`, f.text] as const))]);
  for (const d of result.diagnostics) {
    const where = `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`;
    expect(d.code, where).not.toBe('RB9000');
    expect(d.code, where).toMatch(/^RB\d{4}$/);
    expect(typeof d.message === 'string' && d.message.length > 0, where).toBe(true);
    expect(['error', 'warning'], where).toContain(d.severity);
    // The one exception: a pack without a manifest is told to create `pack.yaml`.
    if (d.code === 'RB0002' && !texts.has(d.file)) {
      expect(d.file).toBe('pack.yaml');
      continue;
    }
    expect(texts.has(d.file), `${where}: not one of the input files`).toBe(true);
    const text = texts.get(d.file)!;
    const lines = text.split('\n');
    expect(Number.isInteger(d.line) && d.line >= 1 && d.line <= lines.length, `${where}: line out of the file`).toBe(true);
    expect(Number.isInteger(d.column) && d.column >= 1 && d.column <= lines[d.line - 1].length + 1, `${where}: column out of the line`).toBe(true);
    expect(d.offset >= 0 && d.offset <= text.length && d.endOffset >= d.offset && d.endOffset <= text.length + 1, `${where}: offsets ${d.offset}..${d.endOffset} out of the file`).toBe(true);
  }
  if (result.pack) expect(result.diagnostics.every((d) => d.severity !== 'error')).toBe(true);
}

function replaceFile(files: SourceFile[], path: string, text: string): SourceFile[] {
  return files.map((f) => (f.path === path ? { path, text } : f));
}

// ─── (a) random rules text inside a valid pack ──────────────────────────────

const dslTokens = [
  'fn', 'proc', 'action', 'on', 'modify', 'pipeline', 'event', 'setup', 'flow', 'let', 'if', 'then', 'else', 'for', 'in',
  'repeat', 'loop', 'max', 'min', 'break', 'require', 'choose', 'optional', 'by', 'offer', 'emit', 'log', 'turn', 'shuffle',
  'draw', 'from', 'put', 'top', 'bottom', 'of', 'remove', 'finish', 'where', 'and', 'or', 'not', 'true', 'false', 'none',
  'when', 'while', 'limit', 'per', 'with', 'anyone', 'me', 'self', 'holder', 'it', 'value', 'game', 'players', 'current',
  'claim', 'claimed', 'mine', 'claimValue', 'spaces', 'space', 'points', 'owner', 'terrain', 'hills', 'forest', 'a', 'b', 'x',
  'player', 'number', 'bool', 'text', 'list', 'd3', 'roll', 'random', 'count', 'sum', 'any', 'neighbours',
  '{', '}', '(', ')', '[', ']', ',', ':', '..', '.', '?', '+=', '-=', '==', '!=', '<=', '>=', '<', '>', '=', '+', '-', '*', '/', '%',
  '0', '1', '42', '"', '"text"', '"{', '}"', '"{x}"', '#', '\n', '\n  ', ' ', '\t', '\\', '@', 'é', '\u0000',
];
const tokenSoup = fc.array(fc.constantFrom(...dslTokens), { maxLength: 60 }).map((ts) => ts.join(' '));
const mutatedRules = (base: string) =>
  fc.tuple(fc.nat({ max: base.length }), fc.nat({ max: 20 }), fc.array(fc.constantFrom(...dslTokens), { maxLength: 4 })).map(([at, cut, ins]) => base.slice(0, at) + ins.join(' ') + base.slice(at + cut));
const rulesOf = (files: SourceFile[], path: string) => (parseDocument(files.find((f) => f.path === path)!.text).get('rules') as string) ?? '';

/** The rules text put back as YAML: as a `|` block (what authors write) or as YAML chooses to quote it. */
function withRules(yamlText: string, rules: string, style: 'block' | 'auto'): string {
  const doc = parseDocument(yamlText);
  if (style === 'auto') {
    doc.set('rules', rules);
    return doc.toString();
  }
  doc.delete('rules');
  const rest = doc.toString();
  return `${rest}rules: |\n${rules.split('\n').map((l) => `  ${l}`).join('\n')}\n`;
}

describe('compiler robustness', () => {
  it('(a) survives random rules text in a valid pack', () => {
    const game = tiny.find((f) => f.path === 'game.yaml')!;
    const base = rulesOf(tiny, 'game.yaml');
    fc.assert(
      fc.property(
        fc.oneof(tokenSoup, fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), mutatedRules(base)),
        fc.constantFrom('block' as const, 'auto' as const),
        (rules, style) => compileChecked(replaceFile(tiny, 'game.yaml', withRules(game.text, rules, style))),
      ),
      { numRuns: runs(60) },
    );
  }, TIMEOUT);

  // ─── (b) mutations of the real Small World files ──────────────────────────

  /** A small seeded generator (mulberry32), so a failing edit replays from its seed. */
  class Rng {
    constructor(private s: number) {}
    next(): number {
      this.s = (this.s + 0x6d2b79f5) | 0;
      let t = Math.imul(this.s ^ (this.s >>> 15), 1 | this.s);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    }
    nextInt(min: number, max: number): number {
      return min + Math.floor(this.next() * (max - min + 1));
    }
    nextBoolean(): boolean {
      return this.next() < 0.5;
    }
  }
  type Mutation = (text: string, r: Rng) => string;
  const lines = (text: string) => text.split('\n');
  const mutations: Record<string, Mutation> = {
    deleteLine: (t, r) => {
      const ls = lines(t);
      ls.splice(r.nextInt(0, ls.length - 1), 1);
      return ls.join('\n');
    },
    duplicateLine: (t, r) => {
      const ls = lines(t);
      const i = r.nextInt(0, ls.length - 1);
      ls.splice(i, 0, ls[i]);
      return ls.join('\n');
    },
    swapLines: (t, r) => {
      const ls = lines(t);
      const i = r.nextInt(0, ls.length - 1);
      const j = r.nextInt(0, ls.length - 1);
      [ls[i], ls[j]] = [ls[j], ls[i]];
      return ls.join('\n');
    },
    flipCharacter: (t, r) => {
      if (!t) return t;
      const i = r.nextInt(0, t.length - 1);
      const pool = '{}()[]:,-=<>."\'#|&*!?% \t\nazAZ09_\\é';
      return t.slice(0, i) + pool[r.nextInt(0, pool.length - 1)] + t.slice(i + 1);
    },
    truncate: (t, r) => t.slice(0, r.nextInt(0, t.length)),
    changeNumber: (t, r) => {
      const spots = [...t.matchAll(/\d+/g)];
      if (!spots.length) return t;
      const m = spots[r.nextInt(0, spots.length - 1)];
      const replacement = ['0', '-1', '1.5', '99999999999999999999', '1e400', 'NaN', '.inf', 'x'][r.nextInt(0, 7)];
      return t.slice(0, m.index) + replacement + t.slice(m.index! + m[0].length);
    },
    changeName: (t, r) => {
      const spots = [...t.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)];
      if (!spots.length) return t;
      const m = spots[r.nextInt(0, spots.length - 1)];
      const other = spots[r.nextInt(0, spots.length - 1)][0];
      const replacement = [other, `${m[0]}x`, m[0].slice(1), 'player', 'game', 'it', 'list', 'rules', 'true', 'none', '<<'][r.nextInt(0, 10)];
      return t.slice(0, m.index) + replacement + t.slice(m.index! + m[0].length);
    },
    breakIndentation: (t, r) => {
      const ls = lines(t);
      const i = r.nextInt(0, ls.length - 1);
      ls[i] = r.nextBoolean() ? ls[i].replace(/^ {1,3}/, '') : ' '.repeat(r.nextInt(1, 4)) + ls[i];
      return ls.join('\n');
    },
  };

  it('(b) survives mutations of the Small World pack', () => {
    const rulesFiles = smallworld.filter((f) => f.path.startsWith('rules/')).map((f) => f.path);
    const allFiles = smallworld.map((f) => f.path);
    const edit = fc.record({
      file: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...rulesFiles) }, { weight: 2, arbitrary: fc.constantFrom(...allFiles) }),
      mutation: fc.constantFrom(...Object.keys(mutations)),
      seed: fc.integer(),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        let files = smallworld;
        for (const e of edits) {
          const text = files.find((f) => f.path === e.file)!.text;
          const random = new Rng(e.seed);
          files = replaceFile(files, e.file, mutations[e.mutation](text, random));
        }
        compileChecked(files);
      }),
      { numRuns: runs(35) },
    );
  }, TIMEOUT);

  // ─── (c) random YAML values where the pack expects entity fields ──────────

  it('(c) survives random YAML values in entity fields and declarations', () => {
    const yamlValue = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(null, '', 'hills', 'hils', 'a', 'player', '{x}', 'list<space>', 'space?', '*', 1e300, -0, Number.NaN, Number.POSITIVE_INFINITY, [], {}, [['a']], { type: 'number', default: 'x' }),
    );
    const targets: Array<{ pack: SourceFile[]; file: string; path: Array<string | number> }> = [
      { pack: tiny, file: 'game.yaml', path: ['entities', 0, 'terrain'] },
      { pack: tiny, file: 'game.yaml', path: ['entities', 1, 'next'] },
      { pack: tiny, file: 'game.yaml', path: ['entities', 2, 'space'] },
      { pack: tiny, file: 'game.yaml', path: ['entities', 0, 'owner'] },
      { pack: tiny, file: 'game.yaml', path: ['entities', 0, 'rules'] },
      { pack: tiny, file: 'game.yaml', path: ['entities', 1, 'name'] },
      { pack: tiny, file: 'game.yaml', path: ['entities', 3] },
      { pack: tiny, file: 'game.yaml', path: ['kinds', 'space', 'props', 'terrain'] },
      { pack: tiny, file: 'game.yaml', path: ['kinds', 'space', 'graph'] },
      { pack: tiny, file: 'game.yaml', path: ['kinds', 'player', 'state', 'points'] },
      { pack: tiny, file: 'game.yaml', path: ['kinds', 'space', 'roles'] },
      { pack: tiny, file: 'game.yaml', path: ['enums', 'terrain'] },
      { pack: tiny, file: 'game.yaml', path: ['dice', 'd3'] },
      { pack: tiny, file: 'game.yaml', path: ['scoring', 'score'] },
      { pack: tiny, file: 'game.yaml', path: ['entities'] },
      { pack: tiny, file: 'pack.yaml', path: ['players'] },
      { pack: tiny, file: 'pack.yaml', path: ['id'] },
      { pack: smallworld, file: 'races/orcs.yaml', path: ['entities', 0, 'tokens'] },
      { pack: smallworld, file: 'races/orcs.yaml', path: ['entities', 0, 'faction'] },
      { pack: smallworld, file: 'races/orcs.yaml', path: ['entities', 0, 'bounty'] },
      { pack: smallworld, file: 'boards/small1.yaml', path: ['entities', 3, 'adjacent'] },
      { pack: smallworld, file: 'boards/small1.yaml', path: ['entities', 3, 'board'] },
    ];
    fc.assert(
      fc.property(fc.constantFrom(...targets), yamlValue, (target, value) => {
        const src = target.pack.find((f) => f.path === target.file)!;
        const doc = parseDocument(src.text);
        doc.setIn(target.path, value);
        compileChecked(replaceFile(target.pack, target.file, doc.toString()));
      }),
      { numRuns: runs(40) },
    );
  }, TIMEOUT);

  it('(d) survives YAML oddities: aliases, tags, several documents, complex keys, merge keys', () => {
    const aliases = (n: number) => `a: &a [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: n }, (_, i) => `l${i}: &l${i} [${Array(9).fill(i ? `*l${i - 1}` : '*a').join(', ')}]`).join('\n')}\n`;
    const oddities = [
      aliases(8), // a value multiplied by aliases until the YAML library refuses it
      'x: &a [1]\ny: *a\nz: *nowhere\n',
      'enums:\n  t1: &t [hills, forest]\n  t2: *t\n',
      'x: !!binary aGVsbG8=\ny: !custom 3\n',
      '%YAML 1.1\n---\nenums: { e: [a] }\n',
      'enums: { e: [a] }\n---\nenums: { f: [b] }\n',
      'rules: !!str 3\n',
      '? [a, b]\n: c\n',
      '<<: { rules: "flow { }" }\n',
      'entities:\n  - &e { space: z, terrain: hills }\n  - *e\n',
      '\ufeffenums: { bom: [x] }\n',
      'rules: "\\u0000"\n',
      '',
      '# only a comment\n',
      '[1, 2, 3]\n',
      '"just a text"\n',
    ];
    for (const text of oddities) compileChecked([...tiny, { path: 'extra.yaml', text }]);
  });

  it('(e) survives mutations of a pack that extends another', () => {
    const own = teams.map((f) => f.path).filter((p) => p.endsWith('.yaml') && !p.startsWith('scenarios/'));
    fc.assert(
      fc.property(fc.constantFrom(...own), fc.constantFrom(...Object.keys(mutations)), fc.integer(), (file, mutation, seed) => {
        const text = teams.find((f) => f.path === file)!.text;
        compileChecked(replaceFile(teams, file, mutations[mutation](text, new Rng(seed))), { dependencies: teamsDeps });
      }),
      { numRuns: runs(15) },
    );
  }, TIMEOUT);

  it('points every diagnostic into the author’s files even with no manifest or no files', () => {
    compileChecked([]);
    compileChecked(tiny.filter((f) => f.path !== 'pack.yaml'));
    compileChecked([{ path: 'pack.yaml', text: '' }]);
    compileChecked([{ path: 'pack.yaml', text: 'extends: nope\n' }]);
  });
});
