import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtins } from '../compiler/builtins.ts';
import { diagnosticCodes } from '../compiler/codes.ts';
import { DIAGNOSTICS_PATH, DOC_PATH, END, START, builtinsTable, diagnosticsDoc, withBuiltins, withGenerated } from '../scripts/docs.ts';

describe('docs/language.md', () => {
  const doc = readFileSync(DOC_PATH, 'utf8');

  it('has its built-in table generated from compiler/builtins.ts (run `npm run docs` when this fails)', () => {
    const section = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END)).trim();
    expect(section).toBe(builtinsTable().trim());
    expect(withBuiltins(doc)).toBe(doc);
  });

  it('has its keyword and special-name tables generated from dsl/language.ts (run `npm run docs` when this fails)', () => {
    expect(withGenerated(doc)).toBe(doc);
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

describe('docs/diagnostics.md', () => {
  const doc = readFileSync(DIAGNOSTICS_PATH, 'utf8');

  it('is generated from compiler/codes.ts and the golden tests (run `npm run docs` when this fails)', () => {
    expect(doc).toBe(diagnosticsDoc());
  });

  it('has a section for every code, with its fix and an example (or why there is none)', () => {
    for (const c of diagnosticCodes) {
      const at = doc.indexOf(`## ${c.code}: `);
      expect(at, c.code).toBeGreaterThan(0);
      const section = doc.slice(at, doc.indexOf('\n## ', at + 1) >>> 0);
      expect(section, c.code).toContain(`**Fix:** ${c.fix}`);
      expect(section.includes('```text') || section.includes('No example:'), c.code).toBe(true);
    }
  });
});
