/**
 * Playout mode (`playoutChoices`, `playoutApply`) against `legalChoices` and `apply`: the same
 * picks, by their place in the list, in seeded games of every shipped and bench pack, by both
 * engines, make the same states but for what playout mode does not keep (the log, the choices'
 * ids); the choices of the player asked are `choicesOfAsked`'s; a pick refused leaves the state as
 * it was; and agents' games in playout mode are the games they play otherwise.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile, type CompiledPack } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { choicesOfAsked, playByAgents } from '../runtime/agents/index.ts';
import { apply, legalChoices, newGame, playoutApply, playoutChoices, type EngineName, type GameState } from '../runtime/index.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { smallWorldCoreFiles } from '../bench/smallworldCorePack.ts';
import { budgetGame, compileOk } from './helpers/inlinePack.ts';

function packIn(dir: string): CompiledPack {
  const files = dir === CORE ? smallWorldCoreFiles('content/smallworld-wow') : readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
  const { pack } = compile(files, { dependencies: dependenciesOf(dir, files) });
  if (!pack) throw new Error(`${dir} does not compile`);
  return pack;
}

/** The state but for what playout mode does not keep: the log and the choices' ids (their count stays). */
const kept = (st: GameState) => JSON.stringify({ ...st, log: null, choices: st.choices.length });

/** The bench's pack of Small World's core rules (bench/smallworldCorePack.ts). */
const CORE = 'bench: Small World core';
const dirs = [...readdirSync('content').map((d) => join('content', d)), ...readdirSync('test/packs').map((d) => join('test/packs', d)), CORE];
const engines: EngineName[] = ['interpreter', 'generated'];

describe('a game in playout mode is the game apply makes, record aside', () => {
  for (const dir of dirs) {
    it(dir, { timeout: 240_000 }, () => {
      const pack = packIn(dir);
      for (const engine of engines) {
        for (const players of new Set([pack.players.min, Math.min(pack.players.max, 4)])) {
          for (const seed of [1, 2]) {
            let pure = newGame(pack, { players, seed, engine });
            const mine = newGame(pack, { players, seed, engine });
            const log = mine.log.length;
            let rng = seedState(`playout ${seed}`);
            let step = 0;
            for (; step < 400 && !pure.over; step++) {
              const legal = legalChoices(pure, { labels: false });
              const n = playoutChoices(mine);
              expect(n, `${dir} ${engine} seed ${seed} step ${step}`).toBe(legal.length);
              if (!n) break;
              const r = nextRandom(rng);
              rng = r.state;
              const k = Math.floor(r.value * n);
              const a = apply(pure, legal[k]);
              const b = playoutApply(mine, k);
              expect(b.ok).toBe(a.ok);
              if (!a.ok || !b.ok) break;
              expect(b.state).toBe(mine);
              pure = a.state;
              if (step % 10 === 0 || pure.over) expect(kept(mine), `${dir} ${engine} ${players}p seed ${seed} step ${step}`).toBe(kept(pure));
            }
            expect(step).toBeGreaterThan(0);
            expect(kept(mine)).toBe(kept(pure));
            expect(mine.log.length).toBe(log);
            expect(mine.choices.every((c) => c === '')).toBe(true);
          }
        }
      }
    });
  }
});

describe('the choices of the player asked, in playout mode', () => {
  for (const dir of ['content/smallworld-wow', 'content/wotlk', 'test/packs/wotlk-sample']) {
    it(`${dir}: as many as choicesOfAsked, and the same pick`, { timeout: 120_000 }, () => {
      const pack = packIn(dir);
      let pure = newGame(pack, { players: pack.players.min, seed: 3 });
      const mine = newGame(pack, { players: pack.players.min, seed: 3 });
      let rng = seedState('asked');
      for (let step = 0; step < 150 && !pure.over; step++) {
        const legal = choicesOfAsked(pure);
        expect(playoutChoices(mine, true)).toBe(legal.length);
        if (!legal.length) break;
        const r = nextRandom(rng);
        rng = r.state;
        const k = Math.floor(r.value * legal.length);
        pure = (apply(pure, legal[k]) as { state: GameState }).state;
        expect(playoutApply(mine, k).ok).toBe(true);
      }
      expect(kept(mine)).toBe(kept(pure));
    });
  }
});

describe('a pick refused in playout mode leaves the state as it was', () => {
  it('at a require in the action’s body, after it wrote fields', () => {
    const pack = compileOk(budgetGame(`action spin "Spin" {\n  game.n = 5\n  game.xs += [1]\n  require game.n > 9 else "not yet"\n}`));
    const st = newGame(pack, { players: 2, seed: 1 });
    const before = JSON.stringify(st);
    const ids = legalChoices(st).map((c) => c.id);
    expect(playoutChoices(st)).toBe(ids.length);
    expect(playoutApply(st, ids.indexOf('spin'))).toMatchObject({ ok: false, reason: 'not yet' });
    expect(JSON.stringify(st)).toBe(before);
    // The listing is the state's as it was: the other pick is taken.
    const rest = playoutApply(st, ids.indexOf('rest'));
    expect(rest.ok && rest.state.prompt?.player).toBe('p2');
  });

  it('a place that was not listed, or a state not listed for playout', () => {
    const pack = compileOk(budgetGame(`action spin "Spin" { }`));
    const st = newGame(pack, { players: 2, seed: 1 });
    const before = JSON.stringify(st);
    expect(playoutApply(st, 0)).toMatchObject({ ok: false, reason: 'no choice 0 was listed for this state by playoutChoices' });
    legalChoices(st);
    expect(playoutApply(st, 0).ok).toBe(false);
    const n = playoutChoices(st);
    expect(playoutApply(st, n)).toMatchObject({ ok: false, reason: `no choice ${n} was listed for this state by playoutChoices` });
    expect(playoutApply(st, -1).ok).toBe(false);
    expect(JSON.stringify(st)).toBe(before);
  });
});

describe('agents in playout mode', () => {
  for (const dir of ['content/smallworld-wow', 'content/wroth', 'test/packs/connect-four']) {
    it(`${dir}: random bots play the same game, record aside`, { timeout: 120_000 }, () => {
      const pack = packIn(dir);
      const o = { players: pack.players.min, seed: 7, agents: 'random' as const, maxSteps: 3000 };
      const full = playByAgents(pack, o);
      const quick = playByAgents(pack, { ...o, playout: true });
      expect(quick.stopped).toEqual(full.stopped);
      expect(kept(quick.state)).toBe(kept(full.state));
    });
  }

  it('a seat that needs the choices themselves (greedy) is shown them, and the game is the same', { timeout: 120_000 }, () => {
    const pack = packIn('content/smallworld-wow');
    const o = { players: 2, seed: 4, agents: ['greedy', 'random'] as const, maxSteps: 60 };
    const full = playByAgents(pack, { ...o, agents: [...o.agents] });
    const quick = playByAgents(pack, { ...o, agents: [...o.agents], playout: true });
    expect(quick.stopped).toEqual(full.stopped);
    expect(kept(quick.state)).toBe(kept(full.state));
  });
});
