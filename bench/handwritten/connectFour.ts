/**
 * Connect Four as one would write it by hand for speed: a typed array by column, a height per
 * column, legal moves listed in column order (a … g as in test/packs/connect-four), and a win found
 * by counting equal discs both ways along the four directions through the last disc.
 */
import { RandomPicker, type Outcome } from '../randomPlayout.ts';

const COLUMNS = 7;
const ROWS = 6;
const DIRECTIONS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
];

export function playConnectFour(seed: number): Outcome {
  const pick = new RandomPicker(seed);
  const board = new Int8Array(COLUMNS * ROWS);
  const height = new Int8Array(COLUMNS);
  const legal = new Int8Array(COLUMNS);
  const at = (c: number, r: number) => (c >= 0 && c < COLUMNS && r >= 0 && r < ROWS ? board[c * ROWS + r] : 0);
  let player = 1;
  for (let move = 1; move <= COLUMNS * ROWS; move++) {
    let n = 0;
    for (let c = 0; c < COLUMNS; c++) if (height[c] < ROWS) legal[n++] = c;
    const c = legal[pick.index(n)];
    const r = height[c]++;
    board[c * ROWS + r] = player;
    for (const [dc, dr] of DIRECTIONS) {
      let run = 1;
      for (let k = 1; at(c + dc * k, r + dr * k) === player; k++) run++;
      for (let k = 1; at(c - dc * k, r - dr * k) === player; k++) run++;
      if (run >= 4) return { winner: `p${player}`, moves: move };
    }
    player = 3 - player;
  }
  return { winner: null, moves: COLUMNS * ROWS };
}
