import { createToken, Lexer, type IToken, type TokenType } from 'chevrotain';
import { keywordNames, type Keyword } from './language.ts';

/** Any word after a dot: field names may reuse keywords (`game.turn`, `deck.top`). */
export const FieldName = createToken({ name: 'FieldName', pattern: Lexer.NA });
/** Words usable as a function name: identifiers plus `min` and `max`, which are also keywords. */
export const CallName = createToken({ name: 'CallName', pattern: Lexer.NA, categories: [FieldName] });
/** Identifiers; a word that is a keyword is that keyword's token instead (`rulesLexer`), so `format` is not `for` + `mat`. */
export const Ident = createToken({ name: 'Ident', pattern: /[A-Za-z_][A-Za-z0-9_]*/, categories: [CallName, FieldName] });

export type { Keyword } from './language.ts';
export { keywordSet } from './language.ts';

export const keywords: Record<Keyword, TokenType> = Object.fromEntries(
  keywordNames.map((k) => [
    k,
    createToken({
      name: `Kw_${k}`,
      pattern: Lexer.NA,
      categories: k === 'min' || k === 'max' ? [CallName, FieldName] : [FieldName],
    }),
  ]),
) as Record<Keyword, TokenType>;

export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED });
export const Comment = createToken({ name: 'Comment', pattern: /#[^\n]*/, group: Lexer.SKIPPED });
export const NumberLit = createToken({ name: 'NumberLit', pattern: /\d+/ });
export const StringLit = createToken({ name: 'StringLit', pattern: /"(?:[^"\\\n]|\\.)*"/ });

export const LBrace = createToken({ name: 'LBrace', pattern: /{/ });
export const RBrace = createToken({ name: 'RBrace', pattern: /}/ });
export const LParen = createToken({ name: 'LParen', pattern: /\(/ });
export const RParen = createToken({ name: 'RParen', pattern: /\)/ });
export const LBracket = createToken({ name: 'LBracket', pattern: /\[/ });
export const RBracket = createToken({ name: 'RBracket', pattern: /]/ });
export const Comma = createToken({ name: 'Comma', pattern: /,/ });
export const Colon = createToken({ name: 'Colon', pattern: /:/ });
export const Range = createToken({ name: 'Range', pattern: /\.\./ });
export const Dot = createToken({ name: 'Dot', pattern: /\./ });
export const Question = createToken({ name: 'Question', pattern: /\?/ });
export const PlusAssign = createToken({ name: 'PlusAssign', pattern: /\+=/ });
export const MinusAssign = createToken({ name: 'MinusAssign', pattern: /-=/ });
export const Eq = createToken({ name: 'Eq', pattern: /==/ });
export const Neq = createToken({ name: 'Neq', pattern: /!=/ });
export const Le = createToken({ name: 'Le', pattern: /<=/ });
export const Ge = createToken({ name: 'Ge', pattern: />=/ });
export const Lt = createToken({ name: 'Lt', pattern: /</ });
export const Gt = createToken({ name: 'Gt', pattern: />/ });
export const Assign = createToken({ name: 'Assign', pattern: /=/ });
export const Plus = createToken({ name: 'Plus', pattern: /\+/ });
export const Minus = createToken({ name: 'Minus', pattern: /-/ });
export const Star = createToken({ name: 'Star', pattern: /\*/ });
export const Slash = createToken({ name: 'Slash', pattern: /\// });
export const Percent = createToken({ name: 'Percent', pattern: /%/ });

export const allTokens: TokenType[] = [
  FieldName, CallName, WhiteSpace, Comment, NumberLit, StringLit,
  ...Object.values(keywords),
  Ident,
  LBrace, RBrace, LParen, RParen, LBracket, RBracket, Comma, Colon, Range, Dot, Question,
  PlusAssign, MinusAssign, Eq, Neq, Le, Ge, Lt, Gt, Assign, Plus, Minus, Star, Slash, Percent,
];

/** The keywords by their first character's code, each with its token type. */
const keywordsByFirst: Array<Array<[word: string, type: TokenType]>> = [];
for (const [word, type] of Object.entries(keywords)) (keywordsByFirst[word.charCodeAt(0)] ??= []).push([word, type]);

/** Characters that start no token: `length` of them from `offset`, up to where a token can start. */
export interface LexError {
  offset: number;
  length: number;
}

export interface Lexed {
  tokens: IToken[];
  errors: LexError[];
}

/** A one-character token, by its character code. */
const singles: TokenType[] = [];
for (const [code, type] of [[0x7b, LBrace], [0x7d, RBrace], [0x28, LParen], [0x29, RParen], [0x5b, LBracket], [0x5d, RBracket], [0x2c, Comma], [0x3a, Colon], [0x3f, Question], [0x2a, Star], [0x2f, Slash], [0x25, Percent]] as const) singles[code] = type;
/** A token of one character, or of two when `=` (or for `.`, another `.`) follows. */
const pairs: Array<[one: TokenType | undefined, two: TokenType, second: number]> = [];
pairs[0x2e] = [Dot, Range, 0x2e];
pairs[0x2b] = [Plus, PlusAssign, 0x3d];
pairs[0x2d] = [Minus, MinusAssign, 0x3d];
pairs[0x3d] = [Assign, Eq, 0x3d];
pairs[0x21] = [undefined, Neq, 0x3d];
pairs[0x3c] = [Lt, Le, 0x3d];
pairs[0x3e] = [Gt, Ge, 0x3d];

/** The keyword the word `text[at..end)` is, if it is one. */
function keywordAt(text: string, at: number, end: number): [word: string, type: TokenType] | undefined {
  const candidates = keywordsByFirst[text.charCodeAt(at)];
  if (candidates) for (const k of candidates) if (k[0].length === end - at && text.startsWith(k[0], at)) return k;
  return undefined;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isWordStart = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
const isWord = (c: number) => isWordStart(c) || isDigit(c);
/** What `.` in a pattern does not match: a backslash before one of these escapes nothing. */
const isLineBreak = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

/** The token type `tokenEnd` matched; none for white space and comments, which are skipped. */
let matched: TokenType | undefined;

/**
 * Where the token starting at `at` ends, its type in `matched`; -1 where none starts. The patterns
 * of the token types above, tried in their order, each the first to match winning.
 */
function tokenEnd(text: string, at: number): number {
  const c = text.charCodeAt(at);
  let i = at + 1;
  if (isSpace(c)) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    matched = undefined;
    return i;
  }
  if (c === 0x23) {
    const eol = text.indexOf('\n', i);
    matched = undefined;
    return eol < 0 ? text.length : eol;
  }
  if (isDigit(c)) {
    while (i < text.length && isDigit(text.charCodeAt(i))) i++;
    matched = NumberLit;
    return i;
  }
  if (c === 0x22) {
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 0x22) {
        matched = StringLit;
        return i + 1;
      }
      if (d === 0x0a) return -1;
      if (d === 0x5c) {
        if (i + 1 >= text.length || isLineBreak(text.charCodeAt(i + 1))) return -1;
        i++;
      }
    }
    return -1;
  }
  if (isWordStart(c)) {
    while (i < text.length && isWord(text.charCodeAt(i))) i++;
    matched = Ident;
    return i;
  }
  const single = singles[c];
  if (single) {
    matched = single;
    return i;
  }
  const pair = pairs[c];
  if (!pair) return -1;
  if (text.charCodeAt(i) === pair[2]) {
    matched = pair[1];
    return i + 1;
  }
  matched = pair[0];
  return pair[0] ? i : -1;
}

/**
 * The lexer of rules text: the token types' patterns above, read a character code at a time. Tokens
 * keep their start offset only (a token ends where its image does): every position the compiler
 * reports is an offset, mapped into the YAML file. A word is an identifier unless it is a keyword.
 * Characters that start no token are skipped up to where one can start, as one error. This is
 * what Chevrotain's lexer makes of the same token types (test/lexer.test.ts holds the two to the
 * same tokens and errors), in a little over half its time.
 */
export const rulesLexer = {
  /** `offset` is added to every token's start (a text hole's tokens are placed in the text that holds it); errors stay in `text`. */
  tokenize(text: string, offset = 0): Lexed {
    const tokens: IToken[] = [];
    const errors: LexError[] = [];
    let at = 0;
    while (at < text.length) {
      const end = tokenEnd(text, at);
      if (end < 0) {
        const from = at;
        do at++;
        while (at < text.length && tokenEnd(text, at) < 0);
        errors.push({ offset: from, length: at - from });
        continue;
      }
      const type = matched;
      const keyword = type === Ident ? keywordAt(text, at, end) : undefined;
      if (keyword) tokens.push({ image: keyword[0], startOffset: offset + at, tokenTypeIdx: keyword[1].tokenTypeIdx!, tokenType: keyword[1] } as IToken);
      else if (type) tokens.push({ image: text.slice(at, end), startOffset: offset + at, tokenTypeIdx: type.tokenTypeIdx!, tokenType: type } as IToken);
      at = end;
    }
    return { tokens, errors };
  },
};
