import { logKept, logLine } from './log.ts';
import type { RunCtx } from './program.ts';
import { emptyUses } from './clone.ts';
import { display } from './values.ts';

/** `turn p { … }` begins: `p` is the current player, and the actions limited per turn are open again. */
export function startTurn(c: RunCtx, player: string, rule: string | undefined): void {
  c.st.current = player;
  c.st.turn++;
  c.st.used = emptyUses();
  if (logKept()) logLine(c.st, c.step, `Turn ${c.st.turn}: ${display(c.prog.pack, player)}`, rule, player);
}
