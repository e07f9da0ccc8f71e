import { logKept, logLine } from './log.ts';
import type { RunCtx } from './program.ts';
import { newRecord } from './clone.ts';
import { display } from './values.ts';

/**
 * A table of uses, empty, on the records' prototype as `newRecord` makes one (one with no prototype
 * at all is a hash table to V8, slow to make at every turn), but made by `new`: V8 allocates that
 * in place, where `Object.create` is a call of its builtin at every turn.
 */
const UsesTable = function UsesTable() {} as unknown as new () => Record<string, number>;
UsesTable.prototype = Object.getPrototypeOf(newRecord()) as Record<string, number>;

/** `turn p { … }` begins: `p` is the current player, and the actions limited per turn are open again. */
export function startTurn(c: RunCtx, player: string, rule: string | undefined): void {
  c.st.current = player;
  c.st.turn++;
  c.st.used = new UsesTable();
  if (logKept()) logLine(c.st, c.step, `Turn ${c.st.turn}: ${display(c.prog.pack, player)}`, rule, player);
}
