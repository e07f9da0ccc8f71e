/**
 * `npx tsx bench/engine.ts`: the engine alone, for working on its speed. Random 4-player games of
 * the default pack in this thread, timed in CPU time per choice (bench/measure.ts), and the same
 * games with every race copied 7 times under new ids (8× the race cards: the cost per choice
 * should not grow with cards that are not in play). Prints a digest of every game played: a
 * change to the engine that keeps games byte-identical keeps the digest.
 *
 * BASE=<folder of another checkout> races that checkout's compiler and runtime against this one's,
 * interleaved in the same process, on the same games: the speed-up of a change, with both digests.
 *
 * GAMES (default 12) games a round, ROUNDS (default 5) rounds, interleaved; PACK another folder of
 * the default pack (a checkout's, while this one is being edited), or another pack with PLAYERS
 * (default 4) players: `BASE=… PACK=test/packs/tictactoe PLAYERS=2 GAMES=2000` races a small game.
 * PLAYOUT=1 plays the games in playout mode, as simulations do: driven (`playDriven`) where the
 * checkout has it, else stepped (`playoutChoices`, `playoutApply`; PARTS=1 steps them too);
 * ENGINE=generated or =interpreter plays every game on that engine (else the default's warming).
 *
 * PARTS=1 (in playout mode) says what share of a game's time its listings and its new game take,
 * where a profile spreads the time over too many small functions to add up: the same games raced
 * as they are, with every listing made twice, and with every new game made twice.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, stringify } from 'yaml';
import * as compiler from '../compiler/index.ts';
import type { SourceFile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import * as runtime from '../runtime/index.ts';
import type { CompiledPack } from '../runtime/index.ts';
import { interleaved } from './measure.ts';
import { RandomPicker } from './randomPlayout.ts';

const GAMES = Number(process.env.GAMES ?? 12);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DIR = process.env.PACK ?? 'content/smallworld-wow';
const PLAYERS = Number(process.env.PLAYERS ?? 4);
const PLAYOUT = process.env.PLAYOUT === '1';
const ENGINE = process.env.ENGINE === 'generated' || process.env.ENGINE === 'interpreter' ? process.env.ENGINE : undefined;

interface Engine {
  compile: typeof compiler.compile;
  newGame: typeof runtime.newGame;
  legalChoices: typeof runtime.legalChoices;
  apply: typeof runtime.apply;
  playoutChoices: typeof runtime.playoutChoices;
  playoutApply: typeof runtime.playoutApply;
  /** Absent from a checkout older than the driven playout: its playouts are then stepped. */
  playDriven?: typeof runtime.playDriven;
  standings: typeof runtime.standings;
}

function packOf(engine: Engine, files: SourceFile[]): CompiledPack {
  const r = engine.compile(files);
  if (!r.pack) throw new Error(`the pack does not compile: ${r.diagnostics.find((d) => d.severity === 'error')?.message}`);
  return r.pack;
}

/** The pack with each race also under `copies` new ids (`orcs2`, `orcs3`, …), texts and rules kept. */
function withRaceCopies(files: SourceFile[], copies: number): SourceFile[] {
  return files.map((f) => {
    if (!f.path.startsWith('races/')) return f;
    const doc = parse(f.text) as { entities: Array<Record<string, unknown>> };
    const out: Array<Record<string, unknown>> = [];
    for (const e of doc.entities) {
      out.push(e);
      if (typeof e.race !== 'string') continue;
      for (let k = 2; k <= copies + 1; k++) out.push({ ...e, race: `${e.race}${k}` });
    }
    return { path: f.path, text: stringify({ ...doc, entities: out }) };
  });
}

/** What `play` does twice (`PARTS`): each listing, each new game. */
interface Twice {
  listing?: boolean;
  setup?: boolean;
}

/** Plays `games` games from seed `from`; returns the choices made and feeds every final state to `hash`. */
function play(engine: Engine, pack: CompiledPack, from: number, games: number, hash?: (x: string) => void, twice: Twice = {}): number {
  let choices = 0;
  for (let seed = from; seed < from + games; seed++) {
    const pick = new RandomPicker(seed);
    if (twice.setup) engine.newGame(pack, { players: PLAYERS, seed, engine: ENGINE });
    let st = engine.newGame(pack, { players: PLAYERS, seed, engine: ENGINE });
    if (PLAYOUT && !twice.listing && engine.playDriven) {
      const r = engine.playDriven(st, (n) => (st.choices.length < 5000 ? pick.index(n) : -1));
      if (!r.ok) throw new Error(`a listed choice was refused: ${r.reason}`);
    }
    while (!st.over && st.choices.length < 5000) {
      if (twice.listing) engine.playoutChoices(st);
      const r = PLAYOUT ? engine.playoutApply(st, pick.index(engine.playoutChoices(st))) : engine.apply(st, legalPick(engine, st, pick));
      if (!r.ok) throw new Error(`a listed choice was refused: ${r.reason}`);
      st = r.state;
    }
    choices += st.choices.length;
    hash?.(JSON.stringify(st));
    hash?.(JSON.stringify(engine.standings(st)));
  }
  return choices;
}

function legalPick(engine: Engine, st: runtime.GameState, pick: RandomPicker): runtime.Choice {
  const legal = engine.legalChoices(st, { labels: false });
  return legal[pick.index(legal.length)];
}

function digest(engine: Engine, pack: CompiledPack): string {
  const h = createHash('sha256');
  play(engine, pack, 1, GAMES, (x) => h.update(x));
  return h.digest('hex').slice(0, 16);
}

const files = readPackFolder(DIR).filter((f) => !f.path.startsWith('scenarios/'));
const here: Engine = { ...compiler, ...runtime };

if (process.env.PARTS === '1') {
  if (!PLAYOUT) throw new Error('PARTS=1 measures playouts: set PLAYOUT=1 too');
  const pack = packOf(here, files);
  const t = interleaved(ROUNDS, {
    games: () => void play(here, pack, 1, GAMES),
    listing: () => void play(here, pack, 1, GAMES, undefined, { listing: true }),
    setup: () => void play(here, pack, 1, GAMES, undefined, { setup: true }),
  });
  const share = (k: 'listing' | 'setup') => `${(((t[k] - t.games) / t.games) * 100).toFixed(1)}%`;
  console.log(`${DIR}, ${GAMES} playouts: listing the choices ${share('listing')} of a game's time, the new game ${share('setup')}, applying the choices the rest`);
} else if (process.env.BASE) {
  const from = (p: string) => import(pathToFileURL(resolve(process.env.BASE!, p)).href);
  const other: Engine = { ...(await from('compiler/index.ts')), ...(await from('runtime/index.ts')) };
  const packs = { here: packOf(here, files), base: packOf(other, files) };
  const choices = play(here, packs.here, 1, GAMES);
  console.log(`digest of ${GAMES} games: this tree ${digest(here, packs.here)}, base ${digest(other, packs.base)}`);
  const t = interleaved(ROUNDS, { here: () => void play(here, packs.here, 1, GAMES), base: () => void play(other, packs.base, 1, GAMES) });
  console.log(`${DIR}: this tree ${((t.here * 1000) / choices).toFixed(1)} µs CPU per choice, base ${((t.base * 1000) / choices).toFixed(1)}: ${(t.base / t.here).toFixed(2)}× faster`);
} else {
  const base = packOf(here, files);
  const many = packOf(here, withRaceCopies(files, 7));
  const n = { base: play(here, base, 1, GAMES), many: play(here, many, 1, GAMES) };
  const t = interleaved(ROUNDS, { base: () => void play(here, base, 1, GAMES), many: () => void play(here, many, 1, GAMES) });
  const us = (k: 'base' | 'many') => (t[k] * 1000) / n[k];
  console.log(`digest of ${GAMES} games (${PLAYERS} players, seeds 1–${GAMES}): ${digest(here, base)}`);
  console.log(`default pack: ${us('base').toFixed(1)} µs CPU per choice, ${((GAMES * 1000) / t.base).toFixed(2)} games/s (${(n.base / GAMES).toFixed(0)} choices a game)`);
  console.log(`8× races:     ${us('many').toFixed(1)} µs CPU per choice, ${(us('many') / us('base')).toFixed(2)}× the default pack's`);
}
