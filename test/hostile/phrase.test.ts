/**
 * The card-text checker's phrase matcher against a language file written to hurt: a phrase of 24
 * gaps (`… … …`) used to be tried every way through, 5^24 paths per word of every card.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compilePhrase, findAll, matchAt, tokenize } from '../../compiler/text/phrase.ts';
import { budget, rulebookChild, tempFolder } from './harness.ts';

const GAPS = `${Array(24).fill('…').join(' ')} zzz`;

describe('a phrase of 24 gaps', () => {
  it('is matched, or not, at once: over a text of 2,000 words', budget, () => {
    const tokens = tokenize(Array(2000).fill('word').join(' ') + ' zzz', 'en');
    const phrase = compilePhrase(GAPS, 'en');
    const found = findAll(tokens, [{ phrase, value: 1 }]);
    expect(found).toEqual([{ from: 1904, to: 2001, numberAt: undefined, value: 1, phrase }]);
    expect(matchAt(phrase, tokens, 0)).toBeUndefined();
  });

  it('still finds the longest match, and `{n}` where it matched', () => {
    const tokens = tokenize('you pay them 3 coins now', 'en');
    const isNumber = (i: number) => (/^\d+$/.test(tokens[i].text) ? 1 : 0);
    expect(matchAt(compilePhrase('pay|pays … {n} coin*', 'en'), tokens, 1, isNumber)).toEqual({ from: 1, to: 5, numberAt: 3 });
    expect(matchAt(compilePhrase('you? pay …', 'en'), tokens, 0)).toEqual({ from: 0, to: 6, numberAt: undefined });
    expect(matchAt(compilePhrase('you? pay … , coins', 'en'), tokens, 0)).toBeUndefined();
  });

  it('in a pack\'s language file: `rulebook text` finishes (a child held to 512 MB)', { timeout: 70_000 }, () => {
    const dir = join(tempFolder('phrase'), 'wroth');
    cpSync('content/wroth', dir, { recursive: true });
    const file = join(dir, 'language/en.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('zero: ["do not", "does not", "no"]');
    writeFileSync(file, text.replace('zero: ["do not", "does not", "no"]', `zero: ["do not", "does not", "no", "${GAPS}"]`));
    const r = rulebookChild(['text', dir, '--lang', 'en']);
    expect(r.signal).toBeNull();
    expect(r.code).not.toBeNull();
    expect(r.err).not.toContain('    at ');
  });
});
