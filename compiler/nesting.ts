import type * as A from '../dsl/ast.ts';
import { MAX_NESTING, shapeOf } from './declShape.ts';
import type { Declared } from './declare.ts';
import type { DiagnosticInput } from './diagnostic.ts';
import { fragmentSpan } from './load.ts';

/**
 * RB0302 for a declaration nested deeper than `MAX_NESTING`, at its deepest node; the declaration
 * is set aside (its name marked broken, so uses of it are not reported again) and no later pass
 * sees it.
 */
export function checkNesting(d: Declared, report: (d: DiagnosticInput) => void): void {
  for (let i = 0; i < d.units.length; i++) {
    const unit = d.units[i];
    // Every compile measures every unit (a cached answer each, but for the changed ones): only a unit with a deep declaration is copied.
    if (!deepIn(unit.program.decls)) continue;
    const kept = unit.program.decls.filter((decl) => {
      const deepest = shapeOf(decl).deepest;
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

/** Whether a list of declarations holds one nested too deep, by list: the parser gives the same list for the same text (dsl/parser.ts). */
const deep = new WeakMap<A.Decl[], boolean>();

function deepIn(decls: A.Decl[]): boolean {
  let found = deep.get(decls);
  if (found === undefined) {
    found = decls.some((decl) => !!shapeOf(decl).deepest);
    deep.set(decls, found);
  }
  return found;
}
