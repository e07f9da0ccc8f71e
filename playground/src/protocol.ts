/** Messages between the page and the engine worker, which owns the compiler, the compiled pack and the runtime. */
import type { Choice, Diagnostic, GameState, PackSummary, SourceFile } from './engine-types.ts';
import type { Occurrence, OutlineItem, Place } from '../../compiler/symbols.ts';
import type { Completion, Word } from '../../compiler/services.ts';
import type { ScenarioResult } from '../../scenario/index.ts';
import type { Study } from '../../simulate/study.ts';
import type { PostedFiles } from './file-sync.ts';
import type { AgentKind } from '../../runtime/agents.ts';

export type { ScenarioResult };

/** What a compile reads, as the page asks for it. */
export interface CompileInput {
  files: SourceFile[];
  dependencies: Record<string, SourceFile[]>;
  /** The pack's scenario tests, run after a compile without errors (answered with a `scenarios` message). */
  scenarios: SourceFile[];
  /** The game on screen: replayed in the worker as soon as the pack is lowered, its answer sent with the pack. */
  game?: GameRequest;
}

/** A compile as posted: its files with only the texts the worker does not hold (file-sync.ts). */
export interface CompileRequest {
  type: 'compile';
  id: number;
  sources: PostedFiles;
  game?: GameRequest;
}

/** A compile's diagnostics, sent as soon as the pack is checked, before it is lowered to run. */
export interface CompileResponse {
  type: 'compiled';
  id: number;
  diagnostics: Diagnostic[];
  /** The pack has no errors: a `pack` message (same id) follows once it is lowered. */
  lowering?: boolean;
  /** Why there is no compiler (the engine module is missing or threw). */
  engineProblem?: string;
  ms: number;
  clock?: WorkerClock;
}

/** When the worker took a request and posted its answer, as wall-clock instants (trace.ts). */
export interface WorkerClock {
  got: number;
  sent: number;
}

/** The runnable pack of a compile without errors, sent just after its diagnostics (same id). */
export interface PackResponse {
  type: 'pack';
  id: number;
  /** Set when the pack was lowered: the game now runs on it. */
  version?: number;
  /** Left out by the worker when it is the one it posted last; the page's end of the protocol puts it back (engine-client.ts). */
  summary?: PackSummary;
  /** Equal for two summaries in a row that are the same (as JSON; text-names.ts): the page keeps the one it has, and what it drew from it. */
  summaryDigest?: string;
  /** Set when the lowering failed: the compile's diagnostics with the failure (RB9000). */
  diagnostics?: Diagnostic[];
  /** The compile's game (`game`) replayed on the new pack; the answer's `id` is the compile's. */
  replayed?: { game: GameRequest; answer: PlayResponse };
  /** From the compile asked to this message. */
  ms: number;
  /** Of which the lowering of the checked pack to its runnable form. */
  lowerMs?: number;
}

/**
 * The editor's language services, answered in the worker from the symbol index of the last compile
 * (compiler/services.ts): the index stays there, built when first asked after a compile, so a
 * keystroke neither waits for it nor carries it to the page.
 */
export interface ServiceAnswers {
  completions: Completion[];
  hover: { markdown: string; word: Word } | null;
  definitions: Place[];
  references: Occurrence[];
  outline: OutlineItem[];
}

/** A question of the services: where in which file's text (the text as the editor has it), or a file's outline. */
export type ServiceAsk<K extends keyof ServiceAnswers = keyof ServiceAnswers> = K extends 'outline' ? { op: K; path: string } : { op: K; path: string; text: string; offset: number };

export interface ServiceRequest {
  type: 'service';
  id: number;
  ask: ServiceAsk;
}

export interface ServiceResponse {
  type: 'service';
  id: number;
  /** Null when the worker could not answer (it was restarted, or the services failed). */
  answer: ServiceAnswers[keyof ServiceAnswers] | null;
}

/** A game to replay: its options, its choices, and whose view of it to draw. */
export interface GameRequest {
  players: number;
  seed: number;
  choices: string[];
  viewAs: string | null;
}

export interface PlayRequest extends GameRequest {
  type: 'play';
  id: number;
}

export interface PlayResponse {
  type: 'played';
  id: number;
  /** Pack version the state belongs to. */
  version: number;
  state?: GameState;
  /** The state as `viewAs` sees it (equal to `state` when viewing everything). */
  view?: GameState;
  legal: Choice[];
  /** How many of the requested choices were applied. */
  applied: number;
  stoppedAt?: { step: number; reason: string };
  /** What a bot in the seat asked would pick (`runtime/agents.ts`); the page plays it if that seat is a bot's. */
  bot?: Choice;
  /** When the game is over: the pack's scoring, best first. */
  standings?: Array<{ player: string; score: number; tiebreak: number }>;
  error?: string;
  /** Equal for two answers in a row that draw the same (the state, view, legal choices, bot's pick and standings, as JSON; text-names.ts). */
  digest?: string;
  /** Posted without what it draws, which is the last answer's (game-sync.ts); the page's end puts it back. */
  same?: boolean;
  /** The replay's time in the worker: in all, and that of the new game (the pack's first links its rules) and of the choices applied after the `kept` ones, taken from the last replay (replay-line.ts). */
  ms?: number;
  parts?: { setup: number; choices: number; kept: number };
  clock?: WorkerClock;
}

/** The scenario tests' verdicts, sent after the compile they ran on (same id). */
export interface ScenariosResponse {
  type: 'scenarios';
  id: number;
  version: number;
  results: ScenarioResult[];
  ms: number;
  error?: string;
}

/** One finding of the card text checker: where the text's words are, what the rules say instead. */
export interface TextFindingInfo extends Diagnostic {
  card: string;
  lang: string;
  words?: string;
  rule?: { file: string; line: number; column: number; endLine: number; endColumn: number; source: string };
  canonical?: string;
}

/** A card's verdict: per language, ok or the findings, and the card rendered from its rules. */
export interface CardVerdict {
  id: string;
  kind: string;
  file: string;
  line: number;
  langs: Record<string, { ok: boolean; text?: string; canonical: string; findings: TextFindingInfo[] }>;
}

/** The card text checker's verdicts, sent after the compile they ran on (same id). */
export interface TextsResponse {
  type: 'texts';
  id: number;
  version: number;
  languages: string[];
  cards: CardVerdict[];
  /** Problems of the glossary and language files, not of one card. */
  setup: TextFindingInfo[];
  ms: number;
  error?: string;
}

/** Games by bots on the pack that compiled last, for balance figures; a new compile stops them. */
export interface SimulateRequest {
  type: 'simulate';
  id: number;
  games: number;
  players: number;
  seed: number;
  bots: AgentKind;
}

/** Progress of a simulation, then its figures (`report` with the last message, `done == games`). */
export interface SimulateResponse {
  type: 'simulated';
  id: number;
  version: number;
  done: number;
  games: number;
  report?: Study;
  ms: number;
  error?: string;
}

/**
 * The page has painted what a compile's pack message made it draw (the game replayed, else the
 * pack's summary): the worker's later work for that compile (the card text check) waits for it, so
 * as not to take the processor from that frame.
 */
export interface PaintedRequest {
  type: 'painted';
  id: number;
}

export type WorkerRequest = CompileRequest | PlayRequest | SimulateRequest | ServiceRequest | PaintedRequest;
/** Sent once, when the worker's code has loaded: the watchdog starts counting from then. */
export interface ReadyResponse {
  type: 'ready';
}

export type WorkerResponse = ReadyResponse | CompileResponse | PackResponse | ServiceResponse | PlayResponse | ScenariosResponse | TextsResponse | SimulateResponse;
