import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtins } from '../compiler/builtins.ts';
import { DOC_PATH, END, START, builtinsTable, withBuiltins } from '../scripts/docs.ts';

describe('docs/language.md', () => {
  const doc = readFileSync(DOC_PATH, 'utf8');

  it('has its built-in table generated from compiler/builtins.ts (run `npm run docs` when this fails)', () => {
    const section = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END)).trim();
    expect(section).toBe(builtinsTable().trim());
    expect(withBuiltins(doc)).toBe(doc);
  });

  it('lists every built-in function', () => {
    for (const b of builtins) expect(doc).toContain(`| \`${b.signature.replace(/\|/g, '\\|')}\` |`);
  });

  it('notices a stale table', () => {
    const stale = doc.replace(`| \`${builtins[0].signature}\` |`, '| `count(list<T>): text` |');
    expect(stale).not.toBe(doc);
    expect(withBuiltins(stale)).toBe(doc);
  });
});
