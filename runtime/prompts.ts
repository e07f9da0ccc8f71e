import { newFrame } from './engine.ts';
import { SUSPEND, type BlockCode, type RunCtx, type Signal } from './program.ts';
import type { GameState, Prompt, Value } from './types.ts';

/*
 * Both kinds of prompt are made with every field of a prompt in one order, those a kind has not left
 * undefined (which JSON leaves out): prompts keep one shape for V8, and their JSON is what it was.
 */

/** What a driver gives back for a prompt it does not answer where it is asked: the game suspends there as it would undriven. */
export const NOT_DRIVEN = -1;

/**
 * While a playout is driven (`drivenPlayout.ts`), what a prompt does instead of suspending: its
 * choice listed, picked and made where it is asked, the signal given back the one the rule that
 * asked goes on with (`body` and `slot`: a `choose`'s rest and variable, null for an offer).
 */
export type PromptDriver = (c: RunCtx, body: BlockCode | null, slot: number) => Signal | typeof NOT_DRIVEN;

let driver: PromptDriver | null = null;

/** Sets the driver of prompts (null: none), giving back the one there was. */
export function drivePromptsWith(d: PromptDriver | null): PromptDriver | null {
  const outer = driver;
  driver = d;
  return outer;
}

/**
 * The offer a drive writes each of its offers into, and the state it drives (null: each offer is
 * made anew). A driven offer's prompt is read by its listing alone, and dropped at its pick, so one
 * object serves them all; the one where a drive stops and the game suspends is left to the state,
 * and made anew from then on.
 */
let reused: { st: GameState; prompt: Prompt } | null = null;

/** Sets the offer a drive of `st` writes its offers into (null: none), giving back the one there was. */
export function reuseOffersOf(r: { st: GameState; prompt: Prompt } | null): { st: GameState; prompt: Prompt } | null {
  const outer = reused;
  reused = r;
  return outer;
}

/** An offer's prompt, empty, to be reused (`reuseOffersOf`). */
export function offerPrompt(): Prompt {
  return { player: '', kind: 'offer', actions: undefined, options: undefined, optional: undefined, text: undefined, rule: undefined, slot: undefined, resolving: undefined, frames: [] };
}

/**
 * `choose`: the game waits for `player` to pick one of `options`. The prompt holds the rest of the
 * `choose` block as its first frame; the blocks around it add theirs as the suspension unwinds.
 */
export function askToChoose(c: RunCtx, ask: { player: string; options: Value[]; optional: boolean; text?: string; rule?: string; slot: number; body: BlockCode }): Signal {
  const p: Prompt = {
    player: ask.player,
    kind: 'choose',
    actions: undefined,
    options: ask.options,
    optional: ask.optional,
    text: ask.text,
    rule: ask.rule,
    slot: ask.slot,
    resolving: c.resolving ? true : undefined,
    frames: [],
  };
  c.st.prompt = p;
  if (driver !== null) {
    const sig = driver(c, ask.body, ask.slot);
    if (sig !== NOT_DRIVEN) return sig;
  }
  p.frames.push(newFrame(ask.body.id, 0, c.env.slice(), c.me, c.self, c.holder, c.resolving));
  return SUSPEND;
}

/** `offer`: the game waits for `player` to take one of `actions`. */
export function offerActions(c: RunCtx, player: string, actions: string[]): Signal {
  const r = reused;
  const reusing = r !== null && r.st === c.st;
  if (reusing) {
    const p = r.prompt;
    p.player = player;
    p.actions = actions;
    p.resolving = c.resolving ? true : undefined;
    c.st.prompt = p;
  } else c.st.prompt = { player, kind: 'offer', actions, options: undefined, optional: undefined, text: undefined, rule: undefined, slot: undefined, resolving: c.resolving ? true : undefined, frames: [] };
  if (driver !== null) {
    const sig = driver(c, null, 0);
    if (sig !== NOT_DRIVEN) return sig;
  }
  // The game suspends at this offer: a reused one is the state's from now on.
  if (reusing) reused = null;
  return SUSPEND;
}
