import type { IToken } from 'chevrotain';
import type * as A from './ast.ts';
import type { SyntaxError } from './parser.ts';

/**
 * Split `"Claim {c} for {cost(c)} points"` into text and parsed holes; `{{` is a literal brace. A
 * hole that holds no value is kept aside for the checker to report.
 */
export function splitHoles(tok: IToken, parseHole: (text: string, offset: number) => A.Expr | SyntaxError): { parts: Array<string | A.Expr>; badHoles: A.BadHole[] } {
  const image = tok.image;
  const offset = tok.startOffset;
  const body = image.slice(1, -1);
  const parts: Array<string | A.Expr> = [];
  const badHoles: A.BadHole[] = [];
  // The text between holes, as runs of the body joined once: a text grown a character at a time
  // is a chain of one string per character, which the tree keeps.
  let pieces: string[] = [];
  let from = 0;
  const text = (to: number) => {
    pieces.push(body.slice(from, to));
    const joined = pieces.join('');
    pieces = [];
    return joined;
  };
  let i = 0;
  for (; i < body.length; i++) {
    const c = body[i];
    if (c === '\\' && i + 1 < body.length) {
      pieces.push(body.slice(from, i), body[i + 1]);
      from = ++i + 1;
    } else if (c === '{' && body[i + 1] === '{') {
      pieces.push(body.slice(from, i + 1));
      from = ++i + 1;
    } else if (c === '{') {
      const close = body.indexOf('}', i);
      if (close < 0) {
        badHoles.push({ unclosed: true, span: { start: offset + 1 + i, end: offset + image.length } });
        break;
      }
      const before = text(i);
      if (before) parts.push(before);
      const hole = parseHole(body.slice(i + 1, close), offset + 2 + i);
      if ('kind' in hole) parts.push(hole);
      else badHoles.push({ unclosed: false, message: hole.message, span: hole.span });
      i = close;
      from = close + 1;
    }
  }
  const rest = text(Math.min(i, body.length));
  if (rest) parts.push(rest);
  return { parts, badHoles };
}
