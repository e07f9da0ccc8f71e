import * as A from '../dsl/ast.ts';
import type { Declared } from './declare.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import { fragmentSpan } from './load.ts';

/**
 * How deep the syntax tree of one declaration may go: an expression in an expression, a block in a
 * block. Every later pass walks the tree recursively, so a tree deeper than the call stack would
 * crash them; the shipped packs stay under 40.
 */
export const MAX_NESTING = 200;

/**
 * RB0302 for a declaration nested deeper than `MAX_NESTING`, at its deepest node; the declaration
 * is set aside (its name marked broken, so uses of it are not reported again) and no later pass
 * sees it. Measured without recursion, so that the measure cannot overflow the stack itself.
 */
export function checkNesting(d: Declared, report: (d: DiagnosticInput) => void): void {
  for (let i = 0; i < d.units.length; i++) {
    const unit = d.units[i];
    // Every compile measures every unit (a cached answer each, but for the changed ones): only a unit with a deep declaration is copied.
    if (!unit.program.decls.some((decl) => deepestNode(decl))) continue;
    const kept = unit.program.decls.filter((decl) => {
      const deepest = deepestNode(decl);
      if (!deepest) return true;
      report({
        code: 'RB0302',
        message: `this ${decl.kind} nests more than ${MAX_NESTING} levels deep (values or blocks inside each other), more than the compiler reads`,
        at: fragmentSpan(unit.fragment, deepest.span),
        hint: 'split it: give a part of it a name with `let`, or move it into an `fn` of its own',
      });
      d.broken.add(decl.name);
      return false;
    });
    // Replaced, not changed: the unit may be one a compile session keeps for the next compile (compiler/declareMemo.ts).
    if (kept.length !== unit.program.decls.length) d.units[i] = { ...unit, program: { decls: kept } };
  }
}

/**
 * The measure of each declaration, by its tree: the parser gives the same tree for the same rules
 * text (dsl/parser.ts), so a recompile measures only the declarations that changed.
 */
const measured = new WeakMap<A.Decl, A.Node | null>();

/** The first node found deeper than the limit, if any. */
function deepestNode(decl: A.Decl): A.Node | undefined {
  let found = measured.get(decl);
  if (found === undefined) {
    found = measure(decl) ?? null;
    measured.set(decl, found);
  }
  return found ?? undefined;
}

/**
 * Values and their depths on two stacks, and a node's own span (or a name's) never walked: it holds
 * only numbers. Every rules text is measured on a cold compile, so the walk allocates nothing per node.
 */
function measure(decl: A.Decl): A.Node | undefined {
  const values: unknown[] = [decl];
  const depths: number[] = [0];
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
    if (level > MAX_NESTING && value.span) return value as unknown as A.Node;
    for (const key in value) {
      const x = value[key];
      if (x && typeof x === 'object' && !A.spanKeys.has(key)) {
        values.push(x);
        depths.push(level);
      }
    }
  }
  return undefined;
}
