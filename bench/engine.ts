/**
 * `npx tsx bench/engine.ts`: the engine alone, for working on its speed. Random 4-player games of
 * the default pack in this thread, timed in CPU time per choice (bench/measure.ts), and the same
 * games with every race copied 7 times under new ids (8× the race cards: the cost per choice
 * should not grow with cards that are not in play). Prints a digest of every game played: a
 * change to the engine that keeps games byte-identical keeps the digest.
 *
 * BASE=<folder of another checkout> races that checkout's compiler and runtime against this one's,
 * on the same games: the speed-up of a change, with both digests. Each side plays in a child
 * process of its own (bench/engineSide.ts), both started alike, this tree's bench code loading
 * each side's engine from its folder; the two take turns round after round (the order swapped
 * each round), each timing its batch in its own CPU time, after WARM (default 5) untimed rounds
 * taken in turns alike. The figure is the ratio of the sides' medians, beside the range of the
 * rounds' own ratios. Two identical checkouts read 0.95–1.05× either way round (5 rounds of 2,000
 * tic-tac-toe playouts, load 6–10 on 2 cores); raced in one process they read 1.09–1.23× faster
 * for the tree running the bench, which had played one batch more before the first round while
 * the other's first rounds were still slower.
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
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import type { SourceFile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { digest, loadEngine, packOf, play, settingsFromEnv } from './checkoutEngine.ts';
import { startSide } from './engineSide.ts';
import { interleaved, median } from './measure.ts';

const GAMES = Number(process.env.GAMES ?? 12);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
/** Rounds of BASE's A/B played before those timed. */
const WARM = Number(process.env.WARM ?? 5);
const DIR = process.env.PACK ?? 'content/smallworld-wow';
const settings = settingsFromEnv();
const thisTree = dirname(dirname(fileURLToPath(import.meta.url)));

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

const files = readPackFolder(DIR).filter((f) => !f.path.startsWith('scenarios/'));

if (process.env.PARTS === '1') {
  if (!settings.playout) throw new Error('PARTS=1 measures playouts: set PLAYOUT=1 too');
  const here = await loadEngine(thisTree);
  const pack = packOf(here, files);
  const t = interleaved(ROUNDS, {
    games: () => void play(here, pack, settings, 1, GAMES),
    listing: () => void play(here, pack, settings, 1, GAMES, undefined, { listing: true }),
    setup: () => void play(here, pack, settings, 1, GAMES, undefined, { setup: true }),
  });
  const share = (k: 'listing' | 'setup') => `${(((t[k] - t.games) / t.games) * 100).toFixed(1)}%`;
  console.log(`${DIR}, ${GAMES} playouts: listing the choices ${share('listing')} of a game's time, the new game ${share('setup')}, applying the choices the rest`);
} else if (process.env.BASE) {
  // Each side in a process of its own (bench/engineSide.ts), taking turns, the order swapped each round.
  const [here, base] = await Promise.all([startSide(thisTree, files, GAMES), startSide(process.env.BASE, files, GAMES)]);
  console.log(`digest of ${GAMES} games: this tree ${here.digest}, base ${base.digest}`);
  if (here.choices !== base.choices) throw new Error(`the two sides made ${here.choices} and ${base.choices} choices in the same games`);
  const turns = async (rounds: number) => {
    const ms = { here: [] as number[], base: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      for (const k of r % 2 ? (['base', 'here'] as const) : (['here', 'base'] as const)) ms[k].push(await (k === 'here' ? here : base).round());
    }
    return ms;
  };
  // The first rounds taken in turns read up to 2.4× slower than the later ones on both sides alike,
  // even after a second of games played back to back, a full collection or a second's pause
  // before them (the cause not found): they are played, not counted.
  await turns(WARM);
  const ms = await turns(ROUNDS);
  here.close();
  base.close();
  const us = (k: 'here' | 'base') => ((median(ms[k]) * 1000) / here.choices).toPrecision(3);
  const ratios = ms.here.map((t, r) => ms.base[r] / t).sort((a, b) => a - b);
  console.log(
    `${DIR}: this tree ${us('here')} µs CPU per choice, base ${us('base')}: ${(median(ms.base) / median(ms.here)).toFixed(2)}× faster (rounds ${ratios[0].toFixed(2)}–${ratios[ratios.length - 1].toFixed(2)}×)`,
  );
} else {
  const here = await loadEngine(thisTree);
  const base = packOf(here, files);
  const many = packOf(here, withRaceCopies(files, 7));
  const n = { base: play(here, base, settings, 1, GAMES), many: play(here, many, settings, 1, GAMES) };
  const t = interleaved(ROUNDS, { base: () => void play(here, base, settings, 1, GAMES), many: () => void play(here, many, settings, 1, GAMES) });
  const us = (k: 'base' | 'many') => (t[k] * 1000) / n[k];
  console.log(`digest of ${GAMES} games (${settings.players} players, seeds 1–${GAMES}): ${digest(here, base, settings, GAMES)}`);
  console.log(`default pack: ${us('base').toFixed(1)} µs CPU per choice, ${((GAMES * 1000) / t.base).toFixed(2)} games/s (${(n.base / GAMES).toFixed(0)} choices a game)`);
  console.log(`8× races:     ${us('many').toFixed(1)} µs CPU per choice, ${(us('many') / us('base')).toFixed(2)}× the default pack's`);
}
