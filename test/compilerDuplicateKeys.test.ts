import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { COLLECTION_KEY, documentOf } from '../compiler/load.ts';
import { readScenarioFile } from '../scenario/read.ts';
import { seeded } from './helpers/rulesTexts.ts';

/**
 * The compiler finds a key written twice in a mapping itself, by a set a mapping (compiler/load.ts),
 * where the yaml library's `uniqueKeys` compares each key with every key before it: it must find
 * the keys the library finds, in its order, with the one syntax error the compiler reports. The
 * scenario reader reads by the same function.
 */

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const texts = ['content', 'test', 'examples'].flatMap(yamlFiles).map((path) => readFileSync(path, 'utf8'));

/**
 * What the compiler reports of a document's errors (compiler/load.ts): every duplicate key and the
 * first other error, at the first character after the place given, sorted by place as a compile's
 * diagnostics are.
 */
function reported(text: string, errors: ReadonlyArray<{ code: string; pos: [number, number] }>): Array<[string, number]> {
  const syntax = errors.find((e) => e.code !== 'DUPLICATE_KEY');
  const found = errors.filter((e) => e.code === 'DUPLICATE_KEY' || e === syntax).map((e): [string, number] => [e.code, e.pos[0] + /^\s*/.exec(text.slice(e.pos[0]))![0].length]);
  return found.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
}

const byLibrary = (text: string) => reported(text, parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' }).errors);
// A list or mapping written as a key is the compiler's own error, which the library does not report: tested in test/hostile/sizes.
const byCompiler = (text: string) => reported(text, documentOf(text).errors.filter((e) => e.code !== 'NON_STRING_KEY'));

/** A line of the text copied after itself or a few lines further on, sometimes with another piece put in. */
function withCopy(text: string, random: () => number): string {
  const lines = text.split('\n');
  const from = Math.floor(random() * lines.length);
  const to = Math.min(lines.length, from + 1 + Math.floor(random() * 4));
  lines.splice(to, 0, lines[from]);
  let t = lines.join('\n');
  if (random() < 0.3) {
    const at = Math.floor(random() * t.length);
    t = t.slice(0, at) + [': ', '- ', '[', '{', '&a ', '*a', '? ', '\t', '"'][Math.floor(random() * 9)] + t.slice(at);
  }
  return t;
}

/** The texts of every file and 1,000 seeded copies of their lines, most of which write a key twice. */
function* withCopies(): Generator<string> {
  yield* texts;
  const random = seeded(7);
  const small = texts.filter((t) => t.length < 20000);
  for (let k = 0; k < 1000; k++) yield withCopy(small[Math.floor(random() * small.length)], random);
}

/**
 * Every YAML error of a scenario file as its problems give them, sorted by place: the library's
 * errors, a key written twice put past the blanks before it (the library puts it at the end of the
 * line before the key), where the scenario reader puts it.
 */
function scenarioProblems(text: string, errors: ReadonlyArray<{ code: string; message: string; pos: [number, number] }>): Array<[number, string]> {
  const at = (e: { code: string; pos: [number, number] }) => (e.code === 'DUPLICATE_KEY' ? e.pos[0] + /^\s*/.exec(text.slice(e.pos[0]))![0].length : e.pos[0]);
  return errors.map((e): [number, string] => [at(e), `this YAML is malformed: ${e.message.split('\n')[0]}`]).sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
}

describe('keys written twice', () => {
  it('are found as the library finds them, in every file and in seeded copies of their lines', () => {
    let twice = 0;
    for (const text of withCopies()) {
      const library = byLibrary(text);
      if (library.some(([code]) => code === 'DUPLICATE_KEY')) twice++;
      expect({ text, found: byCompiler(text) }).toEqual({ text, found: library });
    }
    // Most copies of a key's line make it twice in its mapping.
    expect(twice).toBeGreaterThan(150);
  });

  it('in a scenario file are the problems the library finds, each at its key, the first in the file first', () => {
    let twice = 0;
    for (const text of withCopies()) {
      const library = scenarioProblems(text, parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' }).errors);
      const problems = readScenarioFile({ path: 'twice.yaml', text }).problems.filter((p) => p.message.startsWith('this YAML is malformed') && !p.message.endsWith(COLLECTION_KEY));
      const found = problems.map((p): [number, string] => [p.at.offset, p.message]);
      expect({ text, found: [...found].sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1])) }).toEqual({ text, found: library });
      expect(found.map(([at]) => at)).toEqual(library.map(([at]) => at));
      for (const p of problems) expect(p.hint).toBe(p.message.endsWith('Map keys must be unique') ? 'each key may appear once in a mapping' : undefined);
      if (problems.some((p) => p.hint)) twice++;
    }
    expect(twice).toBeGreaterThan(150);
  });

  it('of every kind of scalar are found as the library finds them', () => {
    const cases = [
      'a: 1\na: 2\n',
      '1: a\n"1": b\n1: c\n',
      '~: a\nnull: b\n: c\n',
      '.nan: a\n.NaN: b\n',
      '0: a\n-0: b\n',
      'a: {b: 1, b: 2, "b": 3}\nc: [{d: 1}, {d: 2}]\n',
      '&x a: 1\n*x : 2\na: 3\n',
      '? [a]\n: 1\n? [a]\n: 2\n',
      'a: 1\nb: [\na: 2\n',
      'a:\n  b: 1\n  b: 2\nb: 3\na: 4\n',
    ];
    for (const text of cases) expect({ text, found: byCompiler(text) }).toEqual({ text, found: byLibrary(text) });
  });

});
