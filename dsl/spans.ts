import type { IToken } from 'chevrotain';
import type * as A from './ast.ts';

/**
 * Spans of tokens and nodes, as both readers of rules text build them (dsl/parser.ts, and the
 * direct reader of its expressions, dsl/expressionReader.ts): the two must give the same trees.
 */

/** Tolerates the placeholder values Chevrotain passes while it records the grammar. */
export function span(from: IToken | A.Node, to: IToken | A.Node): A.Span {
  if (typeof from !== 'object' || typeof to !== 'object' || !from || !to) return { start: 0, end: 0 };
  const s = 'span' in from ? from.span.start : from.startOffset;
  const e = 'span' in to ? to.span.end : tokenEnd(to);
  return { start: s, end: e };
}
/**
 * Where a token ends: the lexer keeps start offsets only (dsl/lexer.ts), and a token is its image
 * (none in the placeholders of the grammar's recording).
 */
export function tokenEnd(t: IToken): number {
  return t.startOffset + (t.image?.length ?? 0);
}
export function tokSpan(t: IToken): A.Span {
  if (!t) return { start: 0, end: 0 };
  return { start: t.startOffset, end: tokenEnd(t) };
}

