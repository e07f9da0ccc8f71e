/**
 * compiler/yamlValue.ts builds a document's value without the yaml library's `toJS`: it must give
 * what `toJS` gives, frozen all through, on every YAML file of the repository and on the shapes it
 * leaves to `toJS` (aliases, keys that are mappings, YAML 1.1 merge keys, names such as `__proto__`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseDocument } from 'yaml';
import { frozenValue } from '../compiler/yamlValue.ts';

const parse = (text: string) => parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: 'error' });

/** A value written out with every object's and list's own properties in order and whether it is frozen: what a pass may read of it. */
function shape(value: unknown, seen = new Set<unknown>()): string {
  if (value === null || typeof value !== 'object') return `${typeof value}:${String(value)}`;
  if (seen.has(value)) return '(again)';
  seen.add(value);
  const names = Object.getOwnPropertyNames(value);
  const entries = names.map((n) => `${JSON.stringify(n)}=${shape((value as Record<string, unknown>)[n], seen)}`);
  return `${Array.isArray(value) ? 'list' : 'map'}${Object.isFrozen(value) ? '' : ' unfrozen'}(${entries.join(',')})`;
}

function expected(text: string): unknown {
  const doc = parse(text);
  const value = doc.toJS({ maxAliasCount: 100 });
  const stack = [value];
  while (stack.length) {
    const x = stack.pop();
    if (!x || typeof x !== 'object' || Object.isFrozen(x)) continue;
    Object.freeze(x);
    stack.push(...Object.values(x));
  }
  return value;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

describe('a document\'s frozen value', () => {
  const files = ['content', 'test', 'examples'].flatMap(yamlFiles);

  it(`is toJS's, frozen, for every YAML file of the repository (${files.length})`, () => {
    expect(files.length).toBeGreaterThan(100);
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const doc = parse(text);
      if (doc.errors.length) continue;
      const toJS = vi.spyOn(doc, 'toJS');
      const value = frozenValue(doc);
      // A shipped pack's file is built without toJS.
      if (path.startsWith('content/')) expect(toJS, path).not.toHaveBeenCalled();
      expect(shape(value), path).toBe(shape(expected(text)));
    }
  });

  const shapes: Record<string, string> = {
    'scalars of every kind': 'a: 1\nb: -2.5e3\nc: true\nd: ~\ne: "x"\nf: \'y\'\ng: |\n  z\nh: 0x1f\ni: .inf\nj:\n',
    'keys that are numbers, booleans or null': '1: a\ntrue: b\n~: c\n2.50: d\n',
    'names an object answers to': '__proto__: { polluted: true }\ntoString: 1\nconstructor: [x]\nhasOwnProperty: ~\n',
    'flow collections and a pair in a list': 'a: [x, { y: 1 }, [z]]\nb: [k: v, w]\n',
    'an alias and its anchor': 'a: &x [1, 2]\nb: *x\nc: { <<: *x }\n',
    'a mapping as a key': '? [k]\n: v\n',
    'merge keys under YAML 1.1': '%YAML 1.1\n---\nbase: &b { a: 1 }\nderived: { <<: *b, c: 2 }\n',
    'a YAML 1.1 set and timestamp': '%YAML 1.1\n---\ns: !!set { a, b }\nt: 2001-12-14\n',
    'an empty document': '',
    'a scalar document': 'just text\n',
    'a list document': '- 1\n- [2, 3]\n',
    'lists and mappings nested deep': `${'['.repeat(200)}1${']'.repeat(200)}\n`,
  };
  for (const [name, text] of Object.entries(shapes)) {
    it(`is toJS's, frozen, for ${name}`, () => {
      expect(parse(text).errors).toEqual([]);
      expect(shape(frozenValue(parse(text)))).toBe(shape(expected(text)));
    });
  }

  it('says what toJS says of an alias bomb', () => {
    const text = `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n`;
    expect(() => frozenValue(parse(text))).toThrow(/Excessive alias count/);
  });
});
