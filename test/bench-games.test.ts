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

function rates(outcomes: Outcome[]): Record<string, number> {
  const out: Record<string, number> = { p1: 0, p2: 0, draw: 0 };
  for (const o of outcomes) out[o.winner ?? 'draw'] += 1 / outcomes.length;
  return out;
}

const seeds = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe.each([
  { game: 'tic-tac-toe', dir: 'test/packs/tictactoe', byHand: playTicTacToe, bgio: boardgameIoPlayer(ticTacToe, ticTacToeMoves), games: 150 },
  { game: 'Connect Four', dir: 'test/packs/connect-four', byHand: playConnectFour, bgio: boardgameIoPlayer(connectFour, connectFourMoves), games: 50 },
])('$game three ways', ({ dir, byHand, bgio, games }) => {
  it('plays the same game for each seed (same winner, same number of moves), so the win and draw rates agree', () => {
    const pack = packPlayer(packOf(dir));
    const expected = seeds(games).map(byHand);
    const asPack = seeds(games).map(pack);
    const asBgio = seeds(games).map(bgio);
    seeds(games).forEach((s, i) => {
      expect(asPack[i], `seed ${s}`).toEqual(expected[i]);
      expect(asBgio[i], `seed ${s}`).toEqual(expected[i]);
    });
    expect(rates(asPack)).toEqual(rates(expected));
    expect(rates(asBgio)).toEqual(rates(expected));
    expect(rates(expected).p1).toBeGreaterThan(0);
    expect(rates(expected).p2).toBeGreaterThan(0);
  });
});

it('tic-tac-toe by random picks ends in draws too, and a full grid takes nine moves', () => {
  const draws = seeds(300).map(playTicTacToe).filter((o) => o.winner === null);
  expect(draws.length).toBeGreaterThan(0);
  expect(draws.every((o) => o.moves === 9)).toBe(true);
});
