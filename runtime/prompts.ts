import type { BlockCode, RunCtx } from './program.ts';
import type { Value } from './types.ts';

/**
 * `choose`: the game waits for `player` to pick one of `options`. The prompt holds the rest of the
 * `choose` block as its first frame; the blocks around it add theirs as the suspension unwinds.
 */
export function askToChoose(c: RunCtx, ask: { player: string; options: Value[]; optional: boolean; text?: string; rule?: string; slot: number; body: BlockCode }): void {
  c.st.prompt = {
    player: ask.player,
    kind: 'choose',
    options: ask.options,
    optional: ask.optional,
    text: ask.text,
    rule: ask.rule,
    slot: ask.slot,
    ...(c.resolving ? { resolving: true as const } : {}),
    frames: [{ block: ask.body.id, pc: 0, env: c.env.slice(), me: c.me, self: c.self, holder: c.holder, ...(c.resolving ? { resolving: true as const } : {}) }],
  };
}

/** `offer`: the game waits for `player` to take one of `actions`. */
export function offerActions(c: RunCtx, player: string, actions: string[]): void {
  c.st.prompt = { player, kind: 'offer', actions, ...(c.resolving ? { resolving: true as const } : {}), frames: [] };
}
