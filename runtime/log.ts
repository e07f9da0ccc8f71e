import type { GameState } from './types.ts';

/** A line of the game log: which choice led to it, the rule that wrote it (`file:line`), and whose it is. */
export function logLine(st: GameState, step: number, text: string, rule: string | undefined, player: string | undefined): void {
  st.log.push({ step, text, rule, player });
}
