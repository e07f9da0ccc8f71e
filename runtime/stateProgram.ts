import { warmed } from './link.ts';
import type { Program } from './program.ts';
import { metaIfAny, metaOf } from './stateMeta.ts';
import type { GameState } from './types.ts';

/** Every state knows the pack it is played with, without carrying closures in its JSON. */
export function attachProgram(prog: Program, state: GameState): GameState {
  const m = metaOf(state);
  m.prog = prog;
  // A state attached anew may have been edited by hand: it is no longer known to be a kept setup's copy.
  m.setup = undefined;
  return state;
}

/** The program a state is played with: its engine's, the generated one once a warming program has turned. */
export function programFor(state: GameState): Program {
  const m = metaIfAny(state);
  const p = m?.prog;
  if (!p) throw new Error('this game state was not made by newGame/apply; call attach(pack, state) after loading it');
  // Both programs play the same game (test/engine-differential.test.ts), and number blocks and rules alike: a state may change from one to the other.
  return p.warming === undefined ? p : (m.prog = warmed(p));
}
