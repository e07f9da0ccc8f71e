/**
 * Tic-tac-toe as a boardgame.io game, written as its tutorial writes it (a move per turn, the end
 * found by `endIf`); legal moves in cell order, a1, b1, c1, a2, … as in test/packs/tictactoe.
 */
import type { Game } from 'boardgame.io';
import { INVALID_MOVE } from 'boardgame.io/core';

export interface Grid {
  cells: Array<string | null>;
}

const LINES = [
  [0, 1, 2],
  [3, 4, 5],
  [6, 7, 8],
  [0, 3, 6],
  [1, 4, 7],
  [2, 5, 8],
  [0, 4, 8],
  [2, 4, 6],
];

export const ticTacToe: Game<Grid> = {
  name: 'tic-tac-toe',
  setup: () => ({ cells: Array(9).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    mark: ({ G, playerID }, cell: number) => {
      if (G.cells[cell] !== null) return INVALID_MOVE;
      G.cells[cell] = playerID;
    },
  },
  endIf: ({ G }) => {
    const line = LINES.find(([a, b, c]) => G.cells[a] !== null && G.cells[a] === G.cells[b] && G.cells[a] === G.cells[c]);
    if (line) return { winner: G.cells[line[0]] };
    if (G.cells.every((c) => c !== null)) return { draw: true };
  },
};

export function ticTacToeMoves(G: Grid): Array<{ move: string; args: number[] }> {
  const out: Array<{ move: string; args: number[] }> = [];
  G.cells.forEach((c, i) => {
    if (c === null) out.push({ move: 'mark', args: [i] });
  });
  return out;
}
