/**
 * A pack's game played by the same random picks as the other ways in the bench: legal choices in
 * the order the runtime lists them, and the winner by the pack's own scoring (a draw when the best
 * score is shared). `engine` picks how its rules run (the generated code, else the interpreter).
 * A playout holds its state alone, so each choice changes it in place (`applyInPlace`), as a
 * search's rollouts may; `apply` would copy it.
 */
import { applyInPlace, legalChoices, newGame, standings, type CompiledPack, type EngineName } from '../runtime/index.ts';
import { RandomPicker, type Outcome } from './randomPlayout.ts';

export function packPlayer(pack: CompiledPack, players = 2, engine?: EngineName): (seed: number) => Outcome {
  return (seed) => {
    const pick = new RandomPicker(seed);
    let st = newGame(pack, { players, seed, engine });
    while (!st.over) {
      const legal = legalChoices(st, { labels: false });
      const r = applyInPlace(st, legal[pick.index(legal.length)]);
      if (!r.ok) throw new Error(`a listed choice was refused: ${r.reason}`);
      st = r.state;
    }
    const [top, next] = standings(st);
    return { winner: next && next.score === top.score && next.tiebreak === top.tiebreak ? null : top.player, moves: st.choices.length };
  };
}
