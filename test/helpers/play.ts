import { apply, type GameState } from '../../runtime/index.ts';

/** Applies choice ids in order, failing the test on any refusal. */
export function play(st: GameState, ...ids: string[]): GameState {
  for (const id of ids) {
    const r = apply(st, id);
    if (!r.ok) throw new Error(`${id} refused: ${r.reason}`);
    st = r.state;
  }
  return st;
}
