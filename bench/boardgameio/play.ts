/**
 * A boardgame.io game played headless by its own reducer, as its server and local master run it
 * (no client, no transport): `InitializeGame`, then one MAKE_MOVE action per move. Run with
 * NODE_ENV=production for its production checks (bench/production.ts).
 */
import type { Game, State } from 'boardgame.io';
import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import { RandomPicker, type Outcome } from '../randomPlayout.ts';

export type LegalMoves<G> = (G: G) => Array<{ move: string; args: unknown[] }>;

export function boardgameIoPlayer<G>(game: Game<G>, legalMoves: LegalMoves<G>): (seed: number) => Outcome {
  const reducer = CreateGameReducer({ game });
  return (seed) => {
    const pick = new RandomPicker(seed);
    let state = InitializeGame({ game, numPlayers: 2 }) as State<G>;
    let moves = 0;
    while (!state.ctx.gameover) {
      const legal = legalMoves(state.G);
      const { move, args } = legal[pick.index(legal.length)];
      const playerID = state.ctx.currentPlayer;
      state = reducer(state, { type: 'MAKE_MOVE', payload: { type: move, args, playerID } }) as State<G>;
      moves++;
    }
    const winner = state.ctx.gameover.winner as string | undefined;
    return { winner: winner === undefined ? null : `p${Number(winner) + 1}`, moves };
  };
}
