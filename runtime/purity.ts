import type { Expr, Rules } from './compiled.ts';

/** What an expression depends on beyond the state, its arguments and `me`, and whom it calls. */
interface Reads {
  /** Calls `roll` or `random`: each evaluation may give another value (and moves the generator). */
  random: boolean;
  /** Reads `self` or `holder`, which a pipeline's base takes from its caller. */
  caller: boolean;
  fns: Set<string>;
  pipelines: Set<string>;
}

function readsOf(roots: Array<Expr | undefined>): Reads {
  const out: Reads = { random: false, caller: false, fns: new Set(), pipelines: new Set() };
  const visit = (x: unknown): void => {
    if (Array.isArray(x)) {
      for (const y of x) visit(y);
      return;
    }
    if (x === null || typeof x !== 'object') return;
    const e = x as Expr;
    if (e.op === 'self' || e.op === 'holder') out.caller = true;
    else if (e.op === 'fn') out.fns.add(e.name);
    else if (e.op === 'pipeline') out.pipelines.add(e.name);
    else if (e.op === 'builtin' && (e.name === 'roll' || e.name === 'random')) out.random = true;
    // A constant's value is data, not operations.
    if (e.op !== 'const') for (const v of Object.values(x)) visit(v);
  };
  for (const r of roots) visit(r);
  return out;
}

/**
 * The pipelines whose value, in a state that does not change, depends only on their arguments and
 * on `me`: nothing they reach rolls or draws a random number, and their base and bounds read no
 * `self` or `holder` of their caller (a modifier's are its own card's). Listing the legal choices may
 * remember their values (`frozen.ts`).
 */
export function rememberedPipelines(rules: Rules): Set<string> {
  const fns = new Map(Object.entries(rules.fns).map(([name, f]) => [name, readsOf([f.body])]));
  const bases = new Map(Object.entries(rules.pipelines).map(([name, p]) => [name, readsOf([p.base, p.min, p.max])]));
  const modifiers = new Map(Object.entries(rules.pipelines).map(([name, p]) => [name, readsOf(p.modifiers.flatMap((m) => [m.when, m.value]))]));
  // Whether something reached from `r` has `what`, through the functions and pipelines it calls.
  const reaches = (r: Reads, what: (x: Reads) => boolean, withModifiers: boolean): boolean => {
    const seen = new Set<Reads>();
    const todo = [r];
    while (todo.length) {
      const x = todo.pop()!;
      if (seen.has(x)) continue;
      seen.add(x);
      if (what(x)) return true;
      for (const f of x.fns) if (fns.has(f)) todo.push(fns.get(f)!);
      for (const p of x.pipelines) {
        if (bases.has(p)) todo.push(bases.get(p)!);
        if (withModifiers && modifiers.has(p)) todo.push(modifiers.get(p)!);
      }
    }
    return false;
  };
  const out = new Set<string>();
  for (const [name, base] of bases) {
    const random = reaches(base, (x) => x.random, true) || reaches(modifiers.get(name)!, (x) => x.random, true);
    if (!random && !reaches(base, (x) => x.caller, false)) out.add(name);
  }
  return out;
}
