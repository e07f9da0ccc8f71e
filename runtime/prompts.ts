import { newFrame } from './engine.ts';
import type { BlockCode, RunCtx } from './program.ts';
import type { Value } from './types.ts';

/*
 * Both kinds of prompt are made with every field of a prompt in one order, those a kind has not left
 * undefined (which JSON leaves out): prompts keep one shape for V8, and their JSON is what it was.
 */

/**
 * `choose`: the game waits for `player` to pick one of `options`. The prompt holds the rest of the
 * `choose` block as its first frame; the blocks around it add theirs as the suspension unwinds.
 */
export function askToChoose(c: RunCtx, ask: { player: string; options: Value[]; optional: boolean; text?: string; rule?: string; slot: number; body: BlockCode }): void {
  c.st.prompt = {
    player: ask.player,
    kind: 'choose',
    actions: undefined,
    options: ask.options,
    optional: ask.optional,
    text: ask.text,
    rule: ask.rule,
    slot: ask.slot,
    resolving: c.resolving ? true : undefined,
    frames: [newFrame(ask.body.id, 0, c.env.slice(), c.me, c.self, c.holder, c.resolving)],
  };
}

/** `offer`: the game waits for `player` to take one of `actions`. */
export function offerActions(c: RunCtx, player: string, actions: string[]): void {
  c.st.prompt = { player, kind: 'offer', actions, options: undefined, optional: undefined, text: undefined, rule: undefined, slot: undefined, resolving: c.resolving ? true : undefined, frames: [] };
}
