import * as A from '../dsl/ast.ts';
import { isJsReserved } from './jsReserved.ts';

/**
 * How deep the syntax tree of one declaration may go: an expression in an expression, a block in a
 * block. Every later pass walks the tree recursively, so a tree deeper than the call stack would
 * crash them; the shipped packs stay under 40.
 */
export const MAX_NESTING = 200;

/** What one walk over a declaration's tree finds, for the passes that would each walk all of it. */
export interface DeclShape {
  /** The first node found deeper than `MAX_NESTING`, if any (the walk stops there). */
  deepest?: A.Node;
  /**
   * Whether some node in it has a `name` JavaScript reserves: when not, no name the declaration
   * binds can be one (compiler/reserved.ts looks no further). True too when the walk stopped early.
   */
  reservedName: boolean;
}

/**
 * The shape of each declaration, by its tree: the parser gives the same tree for the same rules
 * text (dsl/parser.ts), so a recompile walks only the declarations that changed.
 */
const shapes = new WeakMap<A.Decl, DeclShape>();

export function shapeOf(decl: A.Decl): DeclShape {
  let found = shapes.get(decl);
  if (!found) {
    found = walk(decl);
    shapes.set(decl, found);
  }
  return found;
}

/**
 * Values and their depths on two stacks, and a node's own span (or a name's) never walked: it holds
 * only numbers. Every rules text is walked on a cold compile, so the walk allocates nothing per node
 * and does not recurse, so that it cannot overflow the stack itself.
 */
function walk(decl: A.Decl): DeclShape {
  const values: unknown[] = [decl];
  const depths: number[] = [0];
  let reservedName = false;
  while (values.length) {
    const value = values.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (Array.isArray(value)) {
      for (const x of value) {
        if (x && typeof x === 'object') {
          values.push(x);
          depths.push(depth);
        }
      }
      continue;
    }
    const level = value.span ? depth + 1 : depth;
    if (level > MAX_NESTING && value.span) return { deepest: value as unknown as A.Node, reservedName: true };
    if (!reservedName && typeof value.name === 'string' && isJsReserved(value.name)) reservedName = true;
    for (const key in value) {
      const x = value[key];
      if (x && typeof x === 'object' && !A.spanKeys.has(key)) {
        values.push(x);
        depths.push(level);
      }
    }
  }
  return { reservedName };
}
