import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { rulesLexer } from '../dsl/lexer.ts';
import { DIRECT_DEPTH } from '../dsl/expressionReader.ts';
import { NOT_READ_DIRECTLY, parseExpression, readRules, type Reading } from '../dsl/parser.ts';
import { seeded, shippedTexts } from './helpers/rulesTexts.ts';

/**
 * The compiler reads rules text directly (dsl/expressionReader.ts) and by the grammar only where
 * that reading finds an error: the trees, the errors and their places must be the grammar's own, for
 * the shipped packs' rules and for seeded mutations of them, most of which do not parse.
 */

/** The same result down to the order of every node's keys. */
function same(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b) && JSON.stringify(a) === JSON.stringify(b);
}

/** Words and signs a mutation puts in: every kind of token the expression reader tells apart. */
const inserted = ['(', ')', '[', ']', '{', '}', ',', ':', '.', '..', '?', '=', '==', '!=', '<', '>', '<=', '>=', '+', '-', '*', '/', '%', '+=', 'not', 'and', 'or', 'in', 'if', 'then', 'else', 'where', 'true', 'none', 'min', 'x', '1', '"a {x} b"', '"{"', '"{)}"', 'let', 'fn', 'for', 'require'];

/** A text with one token deleted, doubled, swapped with the next, replaced or inserted, or one character deleted. */
function mutate(text: string, random: () => number): string {
  const tokens = rulesLexer.tokenize(text).tokens;
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
  if (!tokens.length) return text + pick(inserted);
  const i = Math.floor(random() * tokens.length);
  const t = tokens[i];
  const start = t.startOffset;
  const end = start + t.image.length;
  switch (Math.floor(random() * 6)) {
    case 0:
      return text.slice(0, start) + text.slice(end);
    case 1:
      return text.slice(0, end) + ' ' + t.image + text.slice(end);
    case 2: {
      const next = tokens[i + 1];
      if (!next) return text.slice(0, start);
      return text.slice(0, start) + next.image + text.slice(end, next.startOffset) + t.image + text.slice(next.startOffset + next.image.length);
    }
    case 3:
      return text.slice(0, start) + pick(inserted) + text.slice(end);
    case 4:
      return text.slice(0, start) + pick(inserted) + ' ' + text.slice(start);
    default: {
      const at = start + Math.floor(random() * t.image.length);
      return text.slice(0, at) + text.slice(at + 1);
    }
  }
}

const { rules, expressions } = shippedTexts();

/**
 * The shipped rules cut into runs of up to three declarations each, as written: every form the
 * packs use, in pieces small enough that thousands of mutations parse quickly.
 */
const pieces = rules.flatMap((text) => {
  const decls = readRules(text, 'grammar').decls;
  return decls.map((d, i) => text.slice(d.span.start, decls[Math.min(i + 2, decls.length - 1)].span.end));
});

describe('rules text read directly', () => {
  it('reads every shipped rules text and YAML expression directly, to the grammar’s trees', () => {
    expect(rules.length).toBeGreaterThan(100);
    expect(expressions.length).toBeGreaterThan(5);
    for (const text of rules) {
      const direct = readRules(text, 'direct');
      expect(direct.errors, text.slice(0, 120)).toEqual([]);
      expect(same(direct, readRules(text, 'grammar')), text.slice(0, 120)).toBe(true);
    }
    for (const text of expressions) {
      const direct = parseExpression(text, 'direct');
      expect(direct.errors, text).toEqual([]);
      expect(same(direct, parseExpression(text, 'grammar')), text).toBe(true);
    }
  });

  it('gives the grammar’s trees, errors and places for 3,000 seeded mutations of the shipped rules', () => {
    expect(pieces.length).toBeGreaterThan(500);
    const random = seeded(12);
    const tally = { read: 0, errors: 0 };
    for (let n = 0; n < 3000; n++) {
      const text = mutate(pieces[Math.floor(random() * pieces.length)], random);
      const grammar = readRules(text, 'grammar');
      const either = readRules(text, 'either');
      if (!same(either, grammar)) {
        // toEqual shows where the trees differ; what it does not tell apart (key order, undefined) fails next.
        expect({ text, either }).toEqual({ text, either: grammar });
        expect.fail(`the direct reading differs from the grammar's in key order or an undefined property: ${text}`);
      }
      if (grammar.errors.length) tally.errors++;
      else tally.read++;
    }
    // Both sides of the fallback are exercised: texts still well formed, and texts with an error.
    expect(tally.read).toBeGreaterThan(300);
    expect(tally.errors).toBeGreaterThan(1000);
  });

  it('gives the grammar’s results for mutated expressions', () => {
    const random = seeded(7);
    for (let n = 0; n < 1000; n++) {
      const text = mutate(expressions[n % expressions.length], random);
      const grammar = parseExpression(text, 'grammar');
      const either = parseExpression(text, 'either');
      if (!same(either, grammar)) {
        // toEqual shows where the trees differ; what it does not tell apart (key order, undefined) fails next.
        expect({ text, either }).toEqual({ text, either: grammar });
        expect.fail(`the direct reading differs from the grammar's in key order or an undefined property: ${text}`);
      }
    }
  });

  it('leaves to the grammar a text nested deeper than it reads, so that the grammar says what it says of it', () => {
    const deep = (n: number, reading: Reading) => ({
      brackets: readRules(`fn f(): number = ${'('.repeat(n)}1${')'.repeat(n)}`, reading),
      nots: readRules(`fn g(): bool = ${'not '.repeat(n)}true`, reading),
      negatives: readRules(`fn h(): number = ${'- '.repeat(n)}1`, reading),
      calls: readRules(`fn k(): number = ${'f('.repeat(n)}1${')'.repeat(n)}`, reading),
      blocks: readRules(`proc p() { ${'if true { '.repeat(n)}x = 1 ${'} '.repeat(n)}}`, reading),
      elseIfs: readRules(`proc q() { if true { } ${'else if (1) == 1 { } '.repeat(n)}}`, reading),
      types: readRules(`fn t(x: ${'list<'.repeat(n)}number${'>'.repeat(n)}): number = 1`, reading),
    });
    for (const n of [DIRECT_DEPTH - 2, DIRECT_DEPTH + 1, 150, 400]) expect(same(deep(n, 'either'), deep(n, 'grammar')), `depth ${n}`).toBe(true);
    for (const [what, r] of Object.entries(deep(DIRECT_DEPTH + 1, 'direct'))) expect(r.errors.map((e) => e.message), what).toEqual([NOT_READ_DIRECTLY]);
  });
});
