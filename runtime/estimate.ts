import type { CompiledPack } from './compiled.ts';
import { withStepBudget } from './budget.ts';
import { ctxFor, withFrozenState } from './engine.ts';
import { linkExpression, programOf } from './link.ts';
import type { ExprFn } from './program.ts';
import type { GameState } from './types.ts';

const linked = new WeakMap<CompiledPack, ExprFn>();

/** Whether the pack declares `scoring: estimate`. */
export function hasEstimate(pack: CompiledPack): boolean {
  return pack.rules.estimate !== undefined;
}

/**
 * Each player's estimated final score in `state` by the pack's `scoring: estimate`, in seat order,
 * under the step budget of a choice; undefined when the pack declares none. A bot cuts its
 * look-ahead short with it, so an estimate costs what one choice may cost, not more. A rule that
 * cannot go on throws, with its reason.
 */
export function estimates(pack: CompiledPack, state: GameState): number[] | undefined {
  const code = pack.rules.estimate;
  if (!code) return undefined;
  let fn = linked.get(pack);
  if (!fn) linked.set(pack, (fn = linkExpression(pack, code)));
  const prog = programOf(pack);
  const run = fn;
  return withStepBudget(() =>
    withFrozenState(() =>
      state.players.map((p) => {
        const c = ctxFor(state, prog, 0, p);
        c.it = p;
        return run(c) as number;
      }),
    ),
  );
}
