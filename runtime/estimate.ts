import type { CompiledPack } from './compiled.ts';
import { withStepBudget } from './budget.ts';
import { ctxFor, withFrozenState } from './engine.ts';
import { programOf } from './link.ts';
import { metaIfAny } from './stateMeta.ts';
import { programFor } from './stateProgram.ts';
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
  const played = metaIfAny(state)?.prog ? programFor(state) : undefined;
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
