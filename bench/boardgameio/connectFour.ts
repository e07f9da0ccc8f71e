/**
 * Connect Four as a boardgame.io game, a move per turn and the end found by `endIf`; the grid by
 * column from the bottom up, legal moves in column order a … g as in test/packs/connect-four.
 */
import type { Game } from 'boardgame.io';
import { INVALID_MOVE } from 'boardgame.io/core';

export interface Columns {
  columns: Array<Array<string>>;
  last: number;
}

const COLUMNS = 7;
const ROWS = 6;
const DIRECTIONS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
];

/** Whether the last disc dropped in column `c` ends four in a row. */
function fourThrough(G: Columns, c: number): boolean {
  const r = G.columns[c].length - 1;
  const player = G.columns[c][r];
  const at = (x: number, y: number) => G.columns[x]?.[y];
  return DIRECTIONS.some(([dc, dr]) => {
    let run = 1;
    for (let k = 1; at(c + dc * k, r + dr * k) === player; k++) run++;
    for (let k = 1; at(c - dc * k, r - dr * k) === player; k++) run++;
    return run >= 4;
  });
}

export const connectFour: Game<Columns> = {
  name: 'connect-four',
  setup: () => ({ columns: Array.from({ length: COLUMNS }, () => []), last: -1 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    drop: ({ G, playerID }, c: number) => {
      if (G.columns[c].length >= ROWS) return INVALID_MOVE;
      G.columns[c].push(playerID);
      G.last = c;
    },
  },
  endIf: ({ G }) => {
    // Asked after the move and again as the next turn begins: the winner is the last disc's owner.
    if (G.last >= 0 && fourThrough(G, G.last)) return { winner: G.columns[G.last][G.columns[G.last].length - 1] };
    if (G.columns.every((col) => col.length >= ROWS)) return { draw: true };
  },
};

export function connectFourMoves(G: Columns): Array<{ move: string; args: number[] }> {
  const out: Array<{ move: string; args: number[] }> = [];
  G.columns.forEach((col, c) => {
    if (col.length < ROWS) out.push({ move: 'drop', args: [c] });
  });
  return out;
}
