/** The engine's types as the playground uses them, plus the plain-data summary the worker sends the page. */
import type { Diagnostic, SourceFile } from '../../compiler/index.ts';
import type { KindLook, Presentation } from '../../compiler/presentation.ts';
import type { Choice, EntityInfo, GameState, KindInfo, LogEntry, Value } from '../../runtime/types.ts';
import type { BotOffer } from './bot-offers.ts';

export type { Diagnostic, SourceFile, Choice, EntityInfo, GameState, KindInfo, KindLook, LogEntry, Presentation, Value };

/** The part of a compiled pack the page reads to draw a board and name things (the rules stay in the worker). */
export interface PackSummary {
  id: string;
  name: Record<string, string>;
  kinds: Record<string, KindInfo>;
  entities: Record<string, EntityInfo>;
  byKind: Record<string, string[]>;
  players: { min: number; max: number };
  languages: string[];
  /** The bots of the playground's list, each seated by the pack or refused with why (bot-offers.ts). */
  bots: BotOffer[];
  /** How the pack's things are drawn. */
  presentation?: Presentation;
}
