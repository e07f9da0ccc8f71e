/**
 * The games `npm run bench` races against each other are the same games: tic-tac-toe and Connect
 * Four as packs (test/packs/), as boardgame.io games and by hand, played by the same seeded random
 * picks, end the same way, seed by seed, so their win and draw rates agree exactly.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { boardgameIoPlayer } from '../bench/boardgameio/play.ts';
import { connectFour, connectFourMoves } from '../bench/boardgameio/connectFour.ts';
import { ticTacToe, ticTacToeMoves } from '../bench/boardgameio/tictactoe.ts';
import { playConnectFour } from '../bench/handwritten/connectFour.ts';
import { playTicTacToe } from '../bench/handwritten/tictactoe.ts';
import { packPlayer } from '../bench/packPlayout.ts';
import type { Outcome } from '../bench/randomPlayout.ts';

function packOf(dir: string) {
  const r = compile(readPackFolder(dir));
  expect(r.diagnostics).toEqual([]);
  return r.pack!;
}

function rates(play: (seed: number) => Outcome, seeds: number[]): Record<string, number> {
  const out: Record<string, number> = { p1: 0, p2: 0, draw: 0 };
  for (const s of seeds) out[play(s).winner ?? 'draw'] += 1 / seeds.length;
  return out;
}

const seeds = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe.each([
  { game: 'tic-tac-toe', dir: 'test/packs/tictactoe', byHand: playTicTacToe, bgio: boardgameIoPlayer(ticTacToe, ticTacToeMoves), games: 200 },
  { game: 'Connect Four', dir: 'test/packs/connect-four', byHand: playConnectFour, bgio: boardgameIoPlayer(connectFour, connectFourMoves), games: 60 },
])('$game three ways', ({ dir, byHand, bgio, games }) => {
  const pack = packPlayer(packOf(dir));

  it('plays the same game for each seed: same winner, same number of moves', () => {
    for (const s of seeds(games)) {
      const expected = byHand(s);
      expect(pack(s), `seed ${s}`).toEqual(expected);
      expect(bgio(s), `seed ${s}`).toEqual(expected);
    }
  });

  it('has the same win and draw rates, with both players winning some games', () => {
    const hand = rates(byHand, seeds(games));
    expect(rates(pack, seeds(games))).toEqual(hand);
    expect(rates(bgio, seeds(games))).toEqual(hand);
    expect(hand.p1).toBeGreaterThan(0);
    expect(hand.p2).toBeGreaterThan(0);
  });
});

it('tic-tac-toe by random picks ends in draws too, and a full grid takes nine moves', () => {
  const draws = seeds(300).map(playTicTacToe).filter((o) => o.winner === null);
  expect(draws.length).toBeGreaterThan(0);
  expect(draws.every((o) => o.moves === 9)).toBe(true);
});
