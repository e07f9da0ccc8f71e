/**
 * A checkout's compiler and runtime, loaded from its folder, and the games bench/engine.ts plays on
 * them. Every function a game runs comes from that folder, the random picker's generator too, so
 * that in an A/B the engines' own code is all the tree's, whichever tree loads this file.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as compiler from '../compiler/index.ts';
import type { SourceFile } from '../compiler/index.ts';
import type * as runtime from '../runtime/index.ts';
import type { CompiledPack } from '../runtime/index.ts';
import type * as rng from '../runtime/rng.ts';

export interface Engine {
  compile: typeof compiler.compile;
  newGame: typeof runtime.newGame;
  legalChoices: typeof runtime.legalChoices;
  apply: typeof runtime.apply;
  playoutChoices: typeof runtime.playoutChoices;
  playoutApply: typeof runtime.playoutApply;
  /** Absent from a checkout older than the driven playout: its playouts are then stepped. */
  playDriven?: typeof runtime.playDriven;
  standings: typeof runtime.standings;
  seedState: typeof rng.seedState;
  nextRandom: typeof rng.nextRandom;
}

/** The engine of the checkout in folder `tree`. */
export async function loadEngine(tree: string): Promise<Engine> {
  const from = (p: string) => import(pathToFileURL(resolve(tree, p)).href);
  return { ...(await from('compiler/index.ts')), ...(await from('runtime/index.ts')), ...(await from('runtime/rng.ts')) };
}

/** How the games are played, from the environment (bench/engine.ts's header says what each means). */
export interface GameSettings {
  players: number;
  playout: boolean;
  engine?: runtime.EngineName;
}

export function settingsFromEnv(): GameSettings {
  const e = process.env.ENGINE;
  return { players: Number(process.env.PLAYERS ?? 4), playout: process.env.PLAYOUT === '1', engine: e === 'generated' || e === 'interpreter' ? e : undefined };
}

export function packOf(engine: Engine, files: SourceFile[]): CompiledPack {
  const r = engine.compile(files);
  if (!r.pack) throw new Error(`the pack does not compile: ${r.diagnostics.find((d) => d.severity === 'error')?.message}`);
  return r.pack;
}

/** What `play` does twice (`PARTS`): each listing, each new game. */
export interface Twice {
  listing?: boolean;
  setup?: boolean;
}

/**
 * Uniform picks among `n` listed choices, one draw of the engine's seeded generator each, as
 * bench/randomPlayout.ts's RandomPicker makes them (the same games), from the checkout's own code.
 */
function picker(engine: Engine, seed: number): (n: number) => number {
  let state = engine.seedState(seed);
  return (n) => {
    const r = engine.nextRandom(state);
    state = r.state;
    return Math.floor(r.value * n);
  };
}

/** Plays `games` games from seed `from`; returns the choices made and feeds every final state to `hash`. */
export function play(engine: Engine, pack: CompiledPack, s: GameSettings, from: number, games: number, hash?: (x: string) => void, twice: Twice = {}): number {
  let choices = 0;
  for (let seed = from; seed < from + games; seed++) {
    const pick = picker(engine, seed);
    if (twice.setup) engine.newGame(pack, { players: s.players, seed, engine: s.engine });
    let st = engine.newGame(pack, { players: s.players, seed, engine: s.engine });
    if (s.playout && !twice.listing && engine.playDriven) {
      const r = engine.playDriven(st, (n) => (st.choices.length < 5000 ? pick(n) : -1));
      if (!r.ok) throw new Error(`a listed choice was refused: ${r.reason}`);
    }
    while (!st.over && st.choices.length < 5000) {
      if (twice.listing) engine.playoutChoices(st);
      const r = s.playout ? engine.playoutApply(st, pick(engine.playoutChoices(st))) : engine.apply(st, legalPick(engine, st, pick));
      if (!r.ok) throw new Error(`a listed choice was refused: ${r.reason}`);
      st = r.state;
    }
    choices += st.choices.length;
    hash?.(JSON.stringify(st));
    hash?.(JSON.stringify(engine.standings(st)));
  }
  return choices;
}

function legalPick(engine: Engine, st: runtime.GameState, pick: (n: number) => number): runtime.Choice {
  const legal = engine.legalChoices(st, { labels: false });
  return legal[pick(legal.length)];
}

/** A digest of the `games` games from seed 1: the same while the engine's games stay byte-identical. */
export function digest(engine: Engine, pack: CompiledPack, s: GameSettings, games: number): string {
  const h = createHash('sha256');
  play(engine, pack, s, 1, games, (x) => h.update(x));
  return h.digest('hex').slice(0, 16);
}
