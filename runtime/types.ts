/**
 * The runtime's data: a compiled pack (what the compiler hands over) and a game state (plain JSON).
 * Nothing here names a game; every kind, field, action and rule comes from the pack.
 */

import type { BudgetName } from './refusal.ts';

/** A value of the rules language at run time: numbers, texts (ids and enum members), booleans, none, lists. */
export type Value = number | string | boolean | null | Value[];

export interface FieldInfo {
  name: string;
  type: string;
  default: Value;
  /** Hidden fields are shown only to their player (player fields) or to nobody (other kinds). */
  hidden: boolean;
}

export interface KindInfo {
  name: string;
  plural: string;
  /** Static properties, given per entity in YAML. */
  props: Record<string, FieldInfo>;
  /** Mutable fields, kept in the game state. */
  state: Record<string, FieldInfo>;
  /** Name of the `list<kind>` property that forms this kind's graph, made symmetric by the compiler. */
  graph?: string;
  /** Role names in declaration order; the first is the default role of a card's rules. */
  roles: string[];
}

export interface EntityInfo {
  id: string;
  kind: string;
  /** Display name per language. */
  name: Record<string, string>;
  /** Card text per language, as written by the designer or translator. */
  text: Record<string, string>;
  props: Record<string, Value>;
}

// ─── Game state ─────────────────────────────────────────────────────────────

/** A suspended piece of rules, waiting for a player's decision. */
export interface Frame {
  /** Block to run, from statement `pc`. */
  block: number;
  pc: number;
  env: Value[];
  me: string | null;
  self: string | null;
  holder: string | null;
  /** Loops resume with the next item or round. */
  loop?: { items: Value[]; index: number; slot: number } | { count: number; max: number };
  /** An `emit` resumes with the triggers still to run: [trigger index, holder]. */
  emit?: { event: string; args: Value[]; pending: Array<[number, string | null]> };
  /** After an `anytime` action: the offer it interrupted, asked again. */
  reprompt?: Prompt;
  /** The rest of a `resolving` block: prompts it asks take no `anytime` action. */
  resolving?: true;
}

export interface Prompt {
  player: string;
  /** `offer`: one of these actions; `choose`: one of these options. */
  kind: 'offer' | 'choose';
  actions?: string[];
  options?: Value[];
  optional?: boolean;
  text?: string;
  /** `file:line` of the `choose` that asks. */
  rule?: string;
  /** For `choose`: the env slot that receives the pick. */
  slot?: number;
  /** Asked inside a `resolving` block: no `anytime` action is open. */
  resolving?: true;
  frames: Frame[];
}

export interface LogEntry {
  /** Index of the choice that led to this entry (-1 for setup). */
  step: number;
  text: string;
  /** Where the rule that caused it is written: `file:line`. */
  rule?: string;
  player?: string;
}

export interface GameState {
  pack: string;
  seed: number;
  /** Mulberry32 state; all randomness comes from here. */
  rng: number;
  players: string[];
  /** Mutable fields of every entity (players and `game` included), by id. */
  e: Record<string, Record<string, Value>>;
  current: string | null;
  turn: number;
  /** Uses of limited actions this turn or game, by `action@card`. */
  used: Record<string, number>;
  usedGame: Record<string, number>;
  prompt: Prompt | null;
  over: boolean;
  choices: string[];
  log: LogEntry[];
  /** Results a scenario forces on the next `roll`s and `random`s (its `rolls:`), taken before the generator is asked. */
  forced?: Value[];
}

export interface Choice {
  /** Stable id: `conquer r7`, `choose r3`, `skip`. */
  id: string;
  player: string;
  /** Action name for offers; `choose` or `skip` for choices. */
  action: string;
  args: Value[];
  label: string;
}

/** A refused choice says why, where the rule that refuses it is written (`file:line`), and which evaluation budget ended, if one did. */
export type ApplyResult = { ok: true; state: GameState } | { ok: false; reason: string; rule?: string; budget?: BudgetName; state: GameState };

export interface NewGameOptions {
  players: number;
  /** A number, or a word that is hashed into one. */
  seed: number | string;
  /**
   * Edits the state after the pack's `setup` rules and before its `flow` starts: how a scenario
   * test sets up "the starting state". A game with edits is no longer its seed and choices alone.
   * A pack whose `setup` asks a player something cannot be edited so (`newGame` says why).
   */
  prepare?: (state: GameState) => void;
  /**
   * How the rules run: `generated` (JavaScript made from the pack's checked rules) or `interpreter`
   * (the reference, closures over the same rules). Both play a game the same byte for byte. By
   * default (unless `RULEBOOK_ENGINE` names one) a pack is played by the interpreter until it has
   * been played a while, then by its generated code if its rules do enough per choice for it to pay.
   */
  engine?: 'generated' | 'interpreter';
  /**
   * A game of the same pack and players no longer wanted (one a playout played to its end), whose
   * objects the new game may take (its entity table, and its records, each field given the setup's
   * value again), so neither it nor a record read from it may be read or played after. They
   * are taken only when that game was itself made from the kept setup the new one is made from (a
   * setup that draws nothing is run once and copied for every game) and changed by the rules alone.
   */
  into?: GameState;
}
