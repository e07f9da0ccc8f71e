import { checkCount, checkNumber, spend } from './budget.ts';
import { sameValue } from './clone.ts';
import type { CompiledPack } from './compiled.ts';
import { distance, stepToward } from './graph.ts';
import { logLine } from './log.ts';
import type { ExprFn, RunCtx } from './program.ts';
import type { Value } from './types.ts';
import { randomInt, takeForced } from './values.ts';

/** Where a built-in is called: the pack, the die a `roll` throws, the call's `file:line` for the log. */
export interface CallSite {
  pack: CompiledPack;
  die?: string;
  rule?: string;
}

/**
 * A built-in gets its arguments unevaluated: `sum`, `any`, `all`, `lowest` and `highest` evaluate
 * their second argument once per element, with `it` set to it.
 */
export type BuiltinImpl = (args: ExprFn[], site: CallSite) => ExprFn;

const list = (f: ExprFn, c: RunCtx): Value[] => (f(c) as Value[]) ?? [];

/** `f` for each element with `it` set to it, until `visit` says stop. */
function each(xs: Value[], f: ExprFn, c: RunCtx, visit: (x: Value, v: Value) => boolean | void): void {
  const saved = c.it;
  for (const x of xs) {
    spend();
    c.it = x;
    if (visit(x, f(c)) === true) break;
  }
  c.it = saved;
}

function best(better: (x: number, y: number) => boolean): BuiltinImpl {
  return ([a, b]) =>
    (c) => {
      let found: Value = null;
      let foundV = 0;
      each(list(a, c), b, c, (x, v) => {
        if (found === null || better(v as number, foundV)) {
          found = x;
          foundV = v as number;
        }
      });
      return found;
    };
}

/** Every built-in function's implementation, by name; their signatures are the compiler's (`compiler/builtins.ts`). */
export const BUILTINS: ReadonlyMap<string, BuiltinImpl> = new Map<string, BuiltinImpl>([
  ['count', ([a]) => (c) => list(a, c).length],
  [
    'sum',
    ([a, b]) =>
      (c) => {
        let total = 0;
        each(list(a, c), b, c, (_, v) => void (total += v as number));
        return checkNumber(total, () => 'the sum');
      },
  ],
  [
    'any',
    ([a, b]) =>
      (c) => {
        let found = false;
        each(list(a, c), b, c, (_, v) => (found = v === true));
        return found;
      },
  ],
  [
    'all',
    ([a, b]) =>
      (c) => {
        let ok = true;
        each(list(a, c), b, c, (_, v) => (ok = v === true) === false);
        return ok;
      },
  ],
  ['min', ([a, b]) => (c) => Math.min(a(c) as number, b(c) as number)],
  ['max', ([a, b]) => (c) => Math.max(a(c) as number, b(c) as number)],
  ['lowest', best((x, y) => x < y)],
  ['highest', best((x, y) => x > y)],
  ['first', ([a]) => (c) => list(a, c)[0] ?? null],
  [
    'last',
    ([a]) =>
      (c) => {
        const xs = list(a, c);
        return xs[xs.length - 1] ?? null;
      },
  ],
  ['at', ([a, b]) => (c) => list(a, c)[(b(c) as number) - 1] ?? null],
  [
    'position',
    ([a, b]) =>
      (c) => {
        const x = b(c);
        const xs = list(a, c);
        spend(xs.length);
        return xs.findIndex((y) => sameValue(x, y)) + 1;
      },
  ],
  ['take', ([a, b]) => (c) => list(a, c).slice(0, Math.max(0, b(c) as number))],
  ['neighbours', ([a], { pack }) => (c) => pack.links[a(c) as string] ?? []],
  ['adjacent', ([a, b], { pack }) => (c) => (pack.links[a(c) as string] ?? []).includes(b(c) as string)],
  ['distance', ([a, b], { pack }) => (c) => distance(pack.links, a(c) as string, b(c) as string)],
  ['stepToward', ([a, b], { pack }) => (c) => stepToward(pack.links, a(c) as string, (b(c) as string[]) ?? [])],
  ['abs', ([a]) => (c) => Math.abs(a(c) as number)],
  [
    'roll',
    (_, { pack, die, rule }) =>
      (c) => {
        const faces = pack.dice[die!];
        const face = takeForced(c.st, (v) => faces.some((f) => sameValue(f, v)), `a face of the die ${die} (${faces.join(', ')})`) ?? faces[randomInt(c.st, faces.length)];
        logLine(c.st, c.step, `rolled ${die}: ${face}`, rule, c.me ?? undefined);
        return face;
      },
  ],
  [
    'random',
    ([a]) =>
      (c) => {
        const n = checkCount(a(c) as number, 1, 'the n of random(n)');
        return takeForced(c.st, (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= n, `a number from 1 to ${n}`) ?? randomInt(c.st, n) + 1;
      },
  ],
]);
