/**
 * A pack's game played by the same random picks as the other ways in the bench: legal choices in
 * the order the runtime lists them, and the winner by the pack's own scoring (a draw when the best
 * score is shared). `engine` picks how its rules run (the generated code, else the interpreter).
 * A playout holds its state alone, so each choice changes it in place (`applyInPlace`), as a
 * search's rollouts may; `apply` would copy it. In playout mode (`playout`) nobody reads its record
 * either: the choices are picked by their place in the list, and no log or choice id is made, and
 * the game is driven (`playDriven`): listed, picked and made at each prompt without suspending.
 * Each game is dropped once played: the next is made in its objects (`into`), as a study's or a
 * search's playouts from the start may.
 */
import { applyInPlace, legalChoices, newGame, playDriven, standings, type CompiledPack, type EngineName, type GameState } from '../runtime/index.ts';
import { RandomPicker, type Outcome } from './randomPlayout.ts';

export function packPlayer(pack: CompiledPack, players = 2, engine?: EngineName, playout = false): (seed: number) => Outcome {
  let done: GameState | undefined;
  return (seed) => {
    const pick = new RandomPicker(seed);
    let st = newGame(pack, { players, seed, engine, into: done });
    while (!st.over) {
      st = playout ? playoutStep(st, pick) : appliedStep(st, pick);
    }
    done = st;
    const [top, next] = standings(st);
    return { winner: next && next.score === top.score && next.tiebreak === top.tiebreak ? null : top.player, moves: st.choices.length };
  };
}

function appliedStep(st: GameState, pick: RandomPicker): GameState {
  const legal = legalChoices(st, { labels: false });
  if (!legal.length) throw stuck(st);
  const r = applyInPlace(st, legal[pick.index(legal.length)]);
  if (!r.ok) throw new Error(`a listed choice was refused: ${r.reason}`);
  return r.state;
}

/** The rest of the game driven (`playDriven`), by the same picks as stepping each choice would make. */
function playoutStep(st: GameState, pick: RandomPicker): GameState {
  const r = playDriven(st, (n) => pick.index(n));
  if (!r.ok) throw new Error(`a listed choice was refused: ${r.reason}`);
  // The picker never stops: short of the end, the game waits where no choice is open.
  if (r.end !== 'over') throw stuck(st);
  return st;
}

function stuck(st: GameState): Error {
  return new Error(`no choice is open at step ${st.choices.length + 1}, and the game is not over`);
}
