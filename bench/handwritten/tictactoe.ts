/**
 * Tic-tac-toe as one would write it by hand for speed: a typed array, legal moves listed in cell
 * order (a1, b1, c1, a2, … as in test/packs/tictactoe), and only the lines through the last move
 * checked.
 */
import { RandomPicker, type Outcome } from '../randomPlayout.ts';

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
const THROUGH = Array.from({ length: 9 }, (_, cell) => LINES.filter((l) => l.includes(cell)));

export function playTicTacToe(seed: number): Outcome {
  const pick = new RandomPicker(seed);
  const board = new Int8Array(9);
  const legal = new Int8Array(9);
  let player = 1;
  for (let move = 1; move <= 9; move++) {
    let n = 0;
    for (let i = 0; i < 9; i++) if (board[i] === 0) legal[n++] = i;
    const cell = legal[pick.index(n)];
    board[cell] = player;
    for (const [a, b, c] of THROUGH[cell]) {
      if (board[a] === player && board[b] === player && board[c] === player) return { winner: `p${player}`, moves: move };
    }
    player = 3 - player;
  }
  return { winner: null, moves: 9 };
}
