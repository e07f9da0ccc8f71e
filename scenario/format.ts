/**
 * Scenario tests as data: the shapes of a scenario file once read, and of the runner's verdict.
 * A scenario reads like an XMage card test: start a game, arrange the state, let named players
 * make named choices, and check what follows. Nothing here needs Node; the playground runs it too.
 */

/** A plain YAML value as the author wrote it: numbers, texts, booleans, none (`~`), lists. */
export type Plain = number | string | boolean | null | Plain[] | { [key: string]: Plain };

/** A place in a scenario file: 1-based line and column, and how many characters to underline. */
export interface Where {
  file: string;
  line: number;
  column: number;
  /** 0-based offset into the file text. */
  offset: number;
  length: number;
}

/** One `key: value` entry of `setup` or `expect`, with the positions of both halves. */
export interface Entry {
  key: string;
  value: Plain;
  keyAt: Where;
  valueAt: Where;
  /** Where a text value's own characters are (inside its quotes), so a place in an `eval` expression maps to the file. */
  textAt?: Where;
  /** When the value is a list: the same for each item. */
  itemsAt?: Where[];
}

/** Results forced on the next die rolls and `random` draws (`rolls: [3, 0]`), in order. */
export interface Rolls {
  values: Plain[];
  at: Where;
}

/** Checks at a moment inside a step: right after the step writes a log entry containing `logged`. */
export interface Moment {
  logged: string;
  at: Where;
  expect: Entry[];
}

/** One choice made by a named player, e.g. `- p1: claim b`. */
export interface Step {
  /** 0-based index within its list (`setupSteps` or `steps`). */
  index: number;
  player: string;
  choice: string;
  /** The player key (`p1`), where a refused or illegal choice is reported. */
  at: Where;
  /** The step must be refused, with a reason containing `text` (`true`: any reason). */
  refused?: { text: string | true; at: Where };
  /** Checked right after the step. */
  expect: Entry[];
  /** Results of the rolls this step makes; all must be used by it. */
  rolls?: Rolls;
  /** Checks inside the step, at the moments its log entries are written, in order. */
  moments: Moment[];
}

export interface Scenario {
  name: string;
  file: string;
  /** The `scenario:` key. */
  at: Where;
  /** The pack id the scenario is written for, when it names one. */
  pack?: { id: string; at: Where };
  seed: number;
  players: number;
  playersAt: Where;
  /** Edits of the starting state, `<entityId>.<field>: value`: made after the pack's `setup` rules, before its `flow` starts. */
  setup: Entry[];
  /** Choices made after the edits, before `steps`, to reach the position under test; no expectations. */
  setupSteps: Step[];
  /** Results of the rolls made from the flow's start (after the setup edits) up to the first decision; all must be used there. */
  rolls?: Rolls;
  steps: Step[];
  /** Checked after the last step. */
  expect: Entry[];
  /** Problems of the scenario's own shape (schema); a scenario with any is not run. */
  problems: Failure[];
}

/** A scenario file read: its scenarios, and problems that belong to no single scenario. */
export interface ScenarioFile {
  file: string;
  scenarios: Scenario[];
  problems: Failure[];
}

/** Why a scenario failed, pointing at the author's own key. */
export interface Failure {
  at: Where;
  /** One sentence: what is wrong, in the scenario's terms. */
  message: string;
  /** The text of the line at `at`, for the caret excerpt. */
  excerpt?: string;
  expected?: Plain;
  found?: Plain;
  /** For refusals: the rule's reason. */
  reason?: string;
  /** What to write instead, when we know. */
  hint?: string;
}

export interface ScenarioResult {
  scenario: string;
  file: string;
  line: number;
  column: number;
  passed: boolean;
  failures: Failure[];
  /** Choices applied before the scenario ended or stopped. */
  steps: number;
}

/**
 * A check of a whole state that a pack may provide (field ranges, totals): each problem names the
 * entity and field it is about. Setup edits that break it are rejected at the setup key.
 */
export type StateCheck = (state: import('../runtime/types.ts').GameState) => Array<{ entity: string; field: string; message: string }>;
