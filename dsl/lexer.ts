import { createToken, Lexer, type ILexingResult, type TokenType } from 'chevrotain';
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

let lexer: Lexer | undefined;

const keywordOfWord: ReadonlyMap<string, TokenType> = new Map(Object.entries(keywords));

/**
 * The lexer of rules text, built on the first text it reads: building it analyses every token's
 * pattern, a start cost for every command of the CLI, most of which never read rules. Tokens keep
 * their start offset only (a token ends where its image does): every position the compiler reports
 * is an offset, mapped into the YAML file, and lines and columns per token were half a token's size.
 * A word is read as an identifier and then looked up among the keywords: a keyword is exactly a
 * word that is one, and one pattern per keyword, each tried on every word, was half the lexing.
 */
export const rulesLexer = {
  tokenize(text: string): ILexingResult {
    const lexed = (lexer ??= new Lexer(allTokens, { positionTracking: 'onlyOffset', ensureOptimizations: false })).tokenize(text);
    for (const token of lexed.tokens) {
      if (token.tokenType !== Ident) continue;
      const keyword = keywordOfWord.get(token.image);
      if (keyword) {
        token.tokenType = keyword;
        token.tokenTypeIdx = keyword.tokenTypeIdx!;
      }
    }
    return lexed;
  },
};
