/** Messages between the page and the engine worker, which owns the compiler, the compiled pack and the runtime. */
import type { Choice, Diagnostic, GameState, PackSummary, SourceFile } from './engine-types.ts';
import type { SymbolIndex } from './symbols.ts';
import type { ScenarioResult } from '../../scenario/index.ts';

export type { ScenarioResult };

export interface CompileRequest {
  type: 'compile';
  id: number;
  files: SourceFile[];
  dependencies: Record<string, SourceFile[]>;
  /** The pack's scenario tests, run after a compile without errors (answered with a `scenarios` message). */
  scenarios: SourceFile[];
}

export interface CompileResponse {
  type: 'compiled';
  id: number;
  diagnostics: Diagnostic[];
  symbols: SymbolIndex;
  /** Set when this compile had no errors: the game now runs on it. */
  version?: number;
  summary?: PackSummary;
  /** Why there is no compiler (the engine module is missing or threw). */
  engineProblem?: string;
  ms: number;
}

export interface PlayRequest {
  type: 'play';
  id: number;
  players: number;
  seed: number;
  choices: string[];
  viewAs: string | null;
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
  /** When the game is over: the pack's scoring, best first. */
  standings?: Array<{ player: string; score: number; tiebreak: number }>;
  error?: string;
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

export type WorkerRequest = CompileRequest | PlayRequest;
export type WorkerResponse = CompileResponse | PlayResponse | ScenariosResponse;
