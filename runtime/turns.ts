import { logKept, logLine } from './log.ts';
import type { RunCtx } from './program.ts';
import { newRecord } from './clone.ts';
import { display } from './values.ts';

/**
 * `turn p { … }` begins: `p` is the current player, and the actions limited per turn are open again.
 * The new table of uses is made on the records' prototype (`newRecord`): one with no prototype at
 * all is a hash table to V8, slow to make at every turn.
 */
export function startTurn(c: RunCtx, player: string, rule: string | undefined): void {
  c.st.current = player;
  c.st.turn++;
  c.st.used = newRecord() as typeof c.st.used;
  if (logKept()) logLine(c.st, c.step, `Turn ${c.st.turn}: ${display(c.prog.pack, player)}`, rule, player);
}
