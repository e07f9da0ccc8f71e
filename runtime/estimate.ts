import type { CompiledPack } from './compiled.ts';
import { withStepBudget } from './budget.ts';
import { ctxFor, withFrozenState } from './engine.ts';
import { programOf } from './link.ts';
import { metaIfAny } from './stateMeta.ts';
import type { GameState } from './types.ts';

/** Whether the pack declares `scoring: estimate`. */
export function hasEstimate(pack: CompiledPack): boolean {
  return pack.rules.estimate !== undefined;
}

/**
 * Each player's estimated final score in `state` by the pack's `scoring: estimate`, in seat order,
 * under the step budget of a choice; undefined when the pack declares none. A bot cuts its
 * look-ahead short with it, so an estimate costs what one choice may cost, not more. It runs on
 * the state's own engine (a search's games warm to generated code like any game). A rule that
 * cannot go on throws, with its reason.
 */
export function estimates(pack: CompiledPack, state: GameState): number[] | undefined {
  if (!pack.rules.estimate) return undefined;
  // Not `programFor`: an estimate is not a listing or a choice, and counting it as a warming call
  // would dilute the steps a call that pick the pack's engine.
  const attached = metaIfAny(state)?.prog;
  const played = attached?.warming?.next ?? attached;
  const prog = played?.pack === pack ? played : programOf(pack);
  const run = prog.estimate!;
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
