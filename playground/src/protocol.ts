/** Messages between the page and the engine worker, which owns the compiler, the compiled pack and the runtime. */
import type { Choice, Diagnostic, GameState, PackSummary, SourceFile } from './engine-types.ts';
import type { SymbolIndex } from './symbols.ts';

export interface CompileRequest {
  type: 'compile';
  id: number;
  files: SourceFile[];
  dependencies: Record<string, SourceFile[]>;
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
  error?: string;
}

export type WorkerRequest = CompileRequest | PlayRequest;
export type WorkerResponse = CompileResponse | PlayResponse;
