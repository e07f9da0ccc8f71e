import { createToken, Lexer, type TokenType } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import { keywordNames } from '../dsl/language.ts';
import * as T from '../dsl/lexer.ts';
import { seeded, shippedTexts } from './helpers/rulesTexts.ts';

/**
 * The rules lexer (dsl/lexer.ts) reads a character code at a time what Chevrotain's lexer reads by
 * the token types' patterns: here Chevrotain's lexer, with every keyword its own pattern that gives
 * way to a longer word (`format` is no `for`), is the reference for the same tokens and errors.
 */
const keywordTypes: TokenType[] = keywordNames.map((k) => createToken({ name: `Kw_${k}`, pattern: new RegExp(`${k}\\b`), longer_alt: T.Ident }));
const reference = new Lexer(
  [
    T.WhiteSpace, T.Comment, T.NumberLit, T.StringLit, ...keywordTypes, T.Ident,
    T.LBrace, T.RBrace, T.LParen, T.RParen, T.LBracket, T.RBracket, T.Comma, T.Colon, T.Range, T.Dot, T.Question,
    T.PlusAssign, T.MinusAssign, T.Eq, T.Neq, T.Le, T.Ge, T.Lt, T.Gt, T.Assign, T.Plus, T.Minus, T.Star, T.Slash, T.Percent,
  ],
  { positionTracking: 'onlyOffset', ensureOptimizations: false },
);

function lexedBoth(text: string) {
  const r = reference.tokenize(text);
  const ours = T.rulesLexer.tokenize(text);
  const shown = (x: { tokens: Array<{ image: string; startOffset: number; tokenType: TokenType }>; errors: Array<{ offset: number; length: number }> }) => ({
    tokens: x.tokens.map((t) => `${t.tokenType.name} ${t.startOffset} ${t.image}`),
    errors: x.errors.map((e) => `${e.offset}+${e.length}`),
  });
  return { ours: shown(ours), reference: shown(r) };
}

/** Characters a mutation puts in: every one that starts, ends or breaks a token, and some that start none. */
const characters = ['"', '\\', '!', '#', '\n', '\r', '\u2028', '.', '=', '<', '>', '+', '-', '{', '}', '(', ')', '[', ']', ',', ':', '?', '*', '/', '%', '_', '0', '7', 'a', 'Z', ' ', '\t', 'é', '@', '$', '~', "'", '`', '\u{1F3B2}', '\0'];

describe('rules lexer', () => {
  const { rules, expressions } = shippedTexts();

  it('gives Chevrotain’s tokens for every shipped rules text and YAML expression', () => {
    expect(rules.length).toBeGreaterThan(100);
    for (const text of [...rules, ...expressions]) {
      const { ours, reference } = lexedBoth(text);
      expect(ours.errors).toEqual([]);
      expect(ours).toEqual(reference);
    }
  });

  it('gives Chevrotain’s tokens and errors for 5,000 seeded mutations and random texts', () => {
    const random = seeded(4);
    const pick = <X>(xs: X[]) => xs[Math.floor(random() * xs.length)];
    let withErrors = 0;
    for (let n = 0; n < 5000; n++) {
      let text: string;
      if (n % 5 === 4) {
        text = Array.from({ length: 1 + Math.floor(random() * 30) }, () => pick(characters)).join('');
      } else {
        const source = rules[n % rules.length];
        const at = Math.floor(random() * source.length);
        const piece = source.slice(at, at + 200);
        const cut = Math.floor(random() * piece.length);
        text = piece.slice(0, cut) + Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(characters)).join('') + piece.slice(cut + (random() < 0.5 ? 1 : 0));
      }
      const { ours, reference } = lexedBoth(text);
      if (reference.errors.length) withErrors++;
      expect(ours, JSON.stringify(text)).toEqual(reference);
    }
    expect(withErrors).toBeGreaterThan(500);
  });

  it('reads a keyword only as a whole word', () => {
    const { ours, reference } = lexedBoth('for format for_x for1 min(max) minimum not!= notx');
    expect(ours).toEqual(reference);
    expect(ours.tokens.slice(0, 4)).toEqual(['Kw_for 0 for', 'Ident 4 format', 'Ident 11 for_x', 'Ident 17 for1']);
  });
});
