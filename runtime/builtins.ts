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

/*
 * The built-ins that visit a list set `it` to each element in turn and create no closure per call:
 * they run inside every filter and every pipeline.
 */
function best(higher: boolean): BuiltinImpl {
  return ([a, b]) =>
    (c) => {
      const xs = list(a, c);
      const saved = c.it;
      let found: Value = null;
      let foundV = 0;
      for (let i = 0; i < xs.length; i++) {
        spend();
        const x = xs[i];
        c.it = x;
        const v = b(c) as number;
        if (found === null || (higher ? v > foundV : v < foundV)) {
          found = x;
          foundV = v;
        }
      }
      c.it = saved;
      return found;
    };
}

/** `any` (stops at the first true) and `all` (stops at the first not true). */
function some(wanted: boolean): BuiltinImpl {
  return ([a, b]) =>
    (c) => {
      const xs = list(a, c);
      const saved = c.it;
      let found = !wanted;
      for (let i = 0; i < xs.length; i++) {
        spend();
        c.it = xs[i];
        if ((b(c) === true) === wanted) {
          found = wanted;
          break;
        }
      }
      c.it = saved;
      return found;
    };
}

const theSum = () => 'the sum';

/** A sum of a list's values, refused when it is not a finite number. */
export function checkSum(total: number): number {
  return checkNumber(total, theSum);
}

/** Where `x` is in `xs`, from 1, or 0: every element looked at counts a step. */
export function positionIn(x: Value, xs: Value[] | null): number {
  const list = xs ?? [];
  spend(list.length);
  return list.findIndex((y) => sameValue(x, y)) + 1;
}

/** Every built-in function's implementation, by name; their signatures are the compiler's (`compiler/builtins.ts`). */
/** The built-ins that draw from the game's generator (or take a forced result): a call of one changes the state. */
export const DRAWING_BUILTINS: ReadonlySet<string> = new Set(['roll', 'random']);

export const BUILTINS: ReadonlyMap<string, BuiltinImpl> = new Map<string, BuiltinImpl>([
  ['count', ([a]) => (c) => list(a, c).length],
  [
    'sum',
    ([a, b]) =>
      (c) => {
        const xs = list(a, c);
        const saved = c.it;
        let total = 0;
        for (let i = 0; i < xs.length; i++) {
          spend();
          c.it = xs[i];
          total += b(c) as number;
        }
        c.it = saved;
        return checkSum(total);
      },
  ],
  ['any', some(true)],
  ['all', some(false)],
  ['min', ([a, b]) => (c) => Math.min(a(c) as number, b(c) as number)],
  ['max', ([a, b]) => (c) => Math.max(a(c) as number, b(c) as number)],
  ['lowest', best(false)],
  ['highest', best(true)],
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
        return positionIn(x, a(c) as Value[] | null);
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
