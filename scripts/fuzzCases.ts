/**
 * The packs the fuzzer feeds the compiler: the shipped packs' files and the test packs, mutated
 * (their YAML and their rules text), and small packs generated at random. A case is a pure function
 * of its seed and number, so any failure can be replayed alone (`npm run fuzz -- --seed S --from N --cases 1`).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import type { SourceFile } from '../compiler/source.ts';

export interface FuzzCase {
  files: SourceFile[];
  dependencies: Record<string, SourceFile[]>;
  /** How the case was made, for a failure report. */
  how: string[];
}

interface SeedPack {
  dir: string;
  files: SourceFile[];
  dependencies: Record<string, SourceFile[]>;
}

let seeds: SeedPack[] | undefined;

/** Every shipped pack and every test pack, read once per process. */
export function seedPacks(root = process.cwd()): SeedPack[] {
  if (seeds) return seeds;
  const dirs = [
    ...readdirSync(join(root, 'content')).map((d) => join(root, 'content', d)),
    ...readdirSync(join(root, 'test/packs')).map((d) => join(root, 'test/packs', d)),
  ];
  seeds = dirs.map((dir) => {
    const files = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
    return { dir, files, dependencies: dependenciesOf(dir, files) ?? {} };
  });
  return seeds;
}

/** A small seeded generator (mulberry32): the same seed and case number give the same case. */
export function rngFor(seed: number, n: number): () => number {
  let a = (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(n + 1, 0xc2b2ae35)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const int = (r: Rng, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[int(r, xs.length)];

/** Words and marks an attacker or a clumsy author writes: YAML syntax, rules syntax, names JavaScript reserves, odd numbers and characters. */
const NASTY = [
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'then',
  '{ toString: false }', '{', '}', '[', ']', ':', ': ', '- ', '&a', '*a', '*b', '&a [*a, *a, *a]', '!!binary', '!tag', '? ', '|', '>', '---', '...',
  '"', "'", '#', '\t', '\r', '\u0000', '\u001b[31m', '\u001b]8;;http://x\u0007', '\u202e', '\ufeff', '💥', 'é',
  '1e308', '-1e308', '.inf', '-.inf', '.nan', 'NaN', 'Infinity', '-0', '9007199254740993', '0x10', '1..NaN', '1..100000',
  '(', ')', '(((((', ')))))', '+', '-', '*', '/', '%', '==', 'and', 'or', 'not', 'in', 'where', 'if', 'then', 'else',
  'let', 'for', 'repeat', 'loop', 'break', 'require', 'choose', 'offer', 'emit', 'log', 'turn', 'shuffle', 'draw', 'put', 'remove', 'finish',
  'fn', 'proc', 'action', 'event', 'on', 'modify', 'setup', 'flow', 'pipeline', 'invariant', 'override', 'anytime', 'with',
  'me', 'self', 'holder', 'it', 'value', 'game', 'players', 'current', 'none', 'true', 'false', 'null', '~',
  'random(0)', 'random(-3)', 'count(', 'sum(', 'any(', 'all(', 'max(', 'min(', '{n}', '…', '@', '../../etc/passwd', '/etc/passwd',
];

/** Mutations of a text: each returns the new text and what it did. */
const TEXT_MUTATIONS: Array<(r: Rng, text: string, donor: string) => [string, string]> = [
  (r, t) => {
    const lines = t.split('\n');
    const i = int(r, lines.length);
    lines.splice(i, 1);
    return [lines.join('\n'), `delete line ${i + 1}`];
  },
  (r, t) => {
    const lines = t.split('\n');
    const i = int(r, lines.length);
    lines.splice(i, 0, lines[i]);
    return [lines.join('\n'), `duplicate line ${i + 1}`];
  },
  (r, t) => {
    const lines = t.split('\n');
    const i = int(r, lines.length);
    const j = int(r, lines.length);
    [lines[i], lines[j]] = [lines[j], lines[i]];
    return [lines.join('\n'), `swap lines ${i + 1} and ${j + 1}`];
  },
  (r, t) => {
    const at = int(r, t.length + 1);
    const w = pick(r, NASTY);
    return [t.slice(0, at) + w + t.slice(at), `insert ${JSON.stringify(w)} at ${at}`];
  },
  (r, t) => {
    const words = [...t.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)];
    if (!words.length) return [t, 'no word to replace'];
    const m = pick(r, words);
    const w = pick(r, NASTY);
    return [t.slice(0, m.index) + w + t.slice(m.index! + m[0].length), `replace \`${m[0]}\` at ${m.index} by ${JSON.stringify(w)}`];
  },
  (r, t, donor) => {
    const words = [...t.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)];
    const given = [...donor.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)];
    if (!words.length || !given.length) return [t, 'no word to swap'];
    const m = pick(r, words);
    const w = pick(r, given)[0];
    return [t.slice(0, m.index) + w + t.slice(m.index! + m[0].length), `replace \`${m[0]}\` at ${m.index} by \`${w}\` of another file`];
  },
  (r, t) => {
    const numbers = [...t.matchAll(/\b\d+\b/g)];
    if (!numbers.length) return [t, 'no number'];
    const m = pick(r, numbers);
    const w = pick(r, ['0', '-5', '-1', '100000', '1e308', '.inf', '.nan', '99999999999999999999', '0.5', '2147483648']);
    return [t.slice(0, m.index) + w + t.slice(m.index! + m[0].length), `number ${m[0]} at ${m.index} → ${w}`];
  },
  (r, t) => {
    const at = int(r, t.length + 1);
    return [t.slice(0, at), `truncate at ${at}`];
  },
  (r, t) => {
    const lines = t.split('\n');
    const i = int(r, lines.length);
    lines[i] = pick(r, ['', ' ', '  ', '\t', '    ']) + lines[i].trimStart();
    return [lines.join('\n'), `reindent line ${i + 1}`];
  },
  (r, t) => {
    const at = int(r, t.length);
    const len = 1 + int(r, 40);
    return [t.slice(0, at) + t.slice(at + len), `cut ${len} characters at ${at}`];
  },
  (r, t) => {
    const at = int(r, t.length);
    const len = 1 + int(r, 60);
    const to = int(r, t.length);
    return [t.slice(0, to) + t.slice(at, at + len) + t.slice(to), `copy ${len} characters from ${at} to ${to}`];
  },
  (r, t) => {
    const ops = ['+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', 'and', 'or', 'in', '=', '+=', '-='];
    const found = [...t.matchAll(/ (\+|-|\*|\/|%|==|!=|<=?|>=?|and|or|in|\+?=|-=) /g)];
    if (!found.length) return [t, 'no operator'];
    const m = pick(r, found);
    const op = pick(r, ops);
    return [t.slice(0, m.index) + ` ${op} ` + t.slice(m.index! + m[0].length), `operator ${m[1]} at ${m.index} → ${op}`];
  },
];

/** A small pack written at random: kinds, entities and rules from a little grammar. */
function randomPack(r: Rng): SourceFile[] {
  const names = ['a', 'b', 'card', 'region', 'x', 'points', 'owner', pick(r, NASTY), pick(r, ['toString', '__proto__', 'constructor', 'n'])];
  const name = () => pick(r, names);
  const expr = (depth: number): string => {
    if (depth <= 0 || r() < 0.3) return pick(r, ['1', '0', '-3', 'true', 'none', 'me', 'game.turn', `${name()}`, `${name()}.${name()}`, '"t"', `count(${name()}s)`, '1..3']);
    const k = int(r, 6);
    if (k === 0) return `${expr(depth - 1)} ${pick(r, ['+', '-', '*', '/', '==', '<', 'and', 'or', 'in'])} ${expr(depth - 1)}`;
    if (k === 1) return `(${expr(depth - 1)})`;
    if (k === 2) return `if ${expr(depth - 1)} then ${expr(depth - 1)} else ${expr(depth - 1)}`;
    if (k === 3) return `${pick(r, ['count', 'sum', 'max', 'min', 'any', 'all', 'random', name()])}(${expr(depth - 1)})`;
    if (k === 4) return `${name()}s where ${expr(depth - 1)}`;
    return `[${expr(depth - 1)}, ${expr(depth - 1)}]`;
  };
  const stmt = (depth: number): string => {
    const k = int(r, 9);
    if (depth <= 0 || k === 0) return `log "${name()}"`;
    if (k === 1) return `let ${name()} = ${expr(2)}`;
    if (k === 2) return `${name()}.${name()} ${pick(r, ['=', '+=', '-='])} ${expr(2)}`;
    if (k === 3) return `if ${expr(2)} { ${stmt(depth - 1)} } else { ${stmt(depth - 1)} }`;
    if (k === 4) return `for ${name()} in ${expr(2)} { ${stmt(depth - 1)} }`;
    if (k === 5) return `choose ${name()} in ${expr(2)} { ${stmt(depth - 1)} }`;
    if (k === 6) return `require ${expr(2)} else "no"`;
    if (k === 7) return `repeat ${expr(1)} { ${stmt(depth - 1)} }`;
    return `emit ${name()}(${expr(1)})`;
  };
  const decl = () => {
    const k = int(r, 6);
    if (k === 0) return `fn ${name()}(${name()}: number): number = ${expr(3)}`;
    if (k === 1) return `action ${name()}(${name()}: ${name()}) {\n  ${stmt(2)}\n  ${stmt(2)}\n}`;
    if (k === 2) return `event ${name()}(${name()}: number)`;
    if (k === 3) return `on ${name()}(${name()}) {\n  ${stmt(2)}\n}`;
    if (k === 4) return `setup {\n  ${stmt(2)}\n}`;
    return `flow {\n  turn ${pick(r, ['me', 'current', name()])} {\n    offer ${name()}\n  }\n}`;
  };
  const kinds = Array.from({ length: 1 + int(r, 3) }, () => `  ${name()}:\n    props: { ${name()}: ${pick(r, ['number', 'text', 'bool', 'region', 'list<card>', 'card?', name()])} }\n    state: { ${name()}: { type: number, default: ${pick(r, ['0', '1', '.inf', 'x'])} } }`).join('\n');
  const entities = Array.from({ length: int(r, 4) }, () => `  - ${name()}: ${name()}\n    ${name()}: ${pick(r, ['1', 'x', '[a, b]', '{ toString: false }', '~'])}`).join('\n');
  const rules = Array.from({ length: 1 + int(r, 4) }, decl).join('\n');
  const game = `kinds:\n${kinds}\nentities:\n${entities || '  []'}\nrules: |\n${rules.split('\n').map((l) => `  ${l}`).join('\n')}\n`;
  const manifest = `id: fuzz\nversion: 0.1.0\nname: { en: Fuzz }\nlanguages: [en]\nplayers: { min: ${pick(r, ['1', '2', '0', '-1', '50000000'])}, max: ${pick(r, ['2', '4', '64', '65', '1e9'])} }\n${r() < 0.1 ? `extends: ${pick(r, ['fuzz', '../up', 'smallworld-wow', 'constructor'])}\n` : ''}`;
  return [
    { path: 'pack.yaml', text: manifest },
    { path: 'game.yaml', text: game },
  ];
}

/** Case `n` of seed `seed`: a mutated seed pack (some of its files), or a random one. */
export function fuzzCase(seed: number, n: number): FuzzCase {
  const r = rngFor(seed, n);
  if (r() < 0.25) {
    const files = randomPack(r);
    const mutations = int(r, 3);
    const how = ['random pack'];
    for (let i = 0; i < mutations; i++) mutateOne(r, files, how);
    return { files, dependencies: {}, how };
  }
  const packs = seedPacks();
  const seedPack = pick(r, packs);
  const how = [`from ${seedPack.dir.replace(/^.*\/(content|test\/packs)\//, '$1/')}`];
  // The big packs are cut to their manifest and a few files: the compiler reads each file the same
  // way, and a case should cost milliseconds, not seconds, so that a run can try a hundred thousand.
  const manifest = seedPack.files.filter((f) => f.path === 'pack.yaml');
  const others = seedPack.files.filter((f) => f.path !== 'pack.yaml');
  const whole = others.length <= 8 && r() < 0.5 && (!Object.keys(seedPack.dependencies).length || r() < 0.1);
  const chosen = whole ? others : Array.from({ length: others.length > 8 ? 1 : 1 + int(r, 3) }, () => pick(r, others));
  const files = [...manifest, ...new Map(chosen.map((f) => [f.path, f])).values()].map((f) => ({ ...f }));
  if (!whole) how.push(`files ${files.map((f) => f.path).join(', ')}`);
  const mutations = 1 + int(r, 3);
  for (let i = 0; i < mutations; i++) mutateOne(r, files, how);
  return { files, dependencies: whole ? seedPack.dependencies : {}, how };
}

function mutateOne(r: Rng, files: SourceFile[], how: string[]): void {
  const f = pick(r, files);
  const donor = pick(r, files).text;
  // Half the time inside the rules text, where the parser and checker work.
  const rules = /rules: \|\n/.exec(f.text);
  const start = rules && r() < 0.5 ? rules.index + rules[0].length : 0;
  const [text, what] = pick(r, TEXT_MUTATIONS)(r, f.text.slice(start), donor);
  f.text = f.text.slice(0, start) + text;
  how.push(`${f.path}: ${what}`);
}
