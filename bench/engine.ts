/**
 * `npx tsx bench/engine.ts`: the engine alone, for working on its speed. Random 4-player games of
 * the default pack in this thread, timed in CPU time per choice (bench/measure.ts), and the same
 * games with every race copied 7 times under new ids (8× the race cards: the cost per choice
 * should not grow with cards that are not in play). Prints a digest of every game played: a
 * change to the engine that keeps games byte-identical keeps the digest.
 *
 * GAMES (default 12) games a round, ROUNDS (default 5) rounds, interleaved.
 */
import { createHash } from 'node:crypto';
import { parse, stringify } from 'yaml';
import { compile, type SourceFile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { apply, legalChoices, newGame, standings, type CompiledPack } from '../runtime/index.ts';
import { interleaved } from './measure.ts';
import { RandomPicker } from './randomPlayout.ts';

const GAMES = Number(process.env.GAMES ?? 12);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DIR = 'content/smallworld-wow';

function packOf(files: SourceFile[]): CompiledPack {
  const r = compile(files);
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

/** Plays `games` games from seed `from`; returns the choices made and feeds every final state to `hash`. */
function play(pack: CompiledPack, from: number, games: number, hash?: (x: string) => void): number {
  let choices = 0;
  for (let seed = from; seed < from + games; seed++) {
    const pick = new RandomPicker(seed);
    let st = newGame(pack, { players: 4, seed });
    while (!st.over && st.choices.length < 5000) {
      const legal = legalChoices(st, { labels: false });
      const r = apply(st, legal[pick.index(legal.length)]);
      if (!r.ok) throw new Error(`a listed choice was refused: ${r.reason}`);
      st = r.state;
    }
    choices += st.choices.length;
    hash?.(JSON.stringify(st));
    hash?.(JSON.stringify(standings(st)));
  }
  return choices;
}

const files = readPackFolder(DIR).filter((f) => !f.path.startsWith('scenarios/'));
const base = packOf(files);
const many = packOf(withRaceCopies(files, 7));

const h = createHash('sha256');
const n = { base: play(base, 1, GAMES, (x) => h.update(x)), many: play(many, 1, GAMES) };
const t = interleaved(ROUNDS, { base: () => void play(base, 1, GAMES), many: () => void play(many, 1, GAMES) });
const us = (k: 'base' | 'many') => (t[k] * 1000) / n[k];
console.log(`digest of ${GAMES} games (4 players, seeds 1–${GAMES}): ${h.digest('hex').slice(0, 16)}`);
console.log(`default pack: ${us('base').toFixed(1)} µs CPU per choice, ${((GAMES * 1000) / t.base).toFixed(2)} games/s (${(n.base / GAMES).toFixed(0)} choices a game)`);
console.log(`8× races:     ${us('many').toFixed(1)} µs CPU per choice, ${(us('many') / us('base')).toFixed(2)}× the default pack's`);
