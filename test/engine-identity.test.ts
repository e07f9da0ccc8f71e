/**
 * The engine plays the same games byte for byte as the golden record (test/fixtures/engine-hashes.json,
 * made before the engine's speed-ups): seeded random games on the test packs, hashing after every
 * step the state, the legal choices, a second legal choice applied to the same state (a state must
 * not change under later choices made from it), a refused choice and the holders of every card.
 * Run with RECORD_ENGINE_HASHES=1 to write the record again, only when a pack's rules change on purpose.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { apply, attach, cardHolders, legalChoices, newGame, standings, viewFor, type GameState } from '../runtime/index.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';

const FIXTURE = new URL('./fixtures/engine-hashes.json', import.meta.url);
const PACKS = ['tictactoe', 'connect-four', 'tiny', 'wotlk-sample', 'wroth-sample'];
const STEPS = 200;

function gameHashes(id: string): Record<string, string> {
  const dir = `test/packs/${id}`;
  const files = readPackFolder(dir);
  const pack = compile(files, { dependencies: dependenciesOf(dir, files) }).pack;
  if (!pack) throw new Error(`${id} does not compile`);
  const out: Record<string, string> = {};
  const counts = [...new Set([pack.players.min, Math.min(pack.players.max, 3)])];
  for (const players of counts) {
    for (const seed of [1, 2, 3]) {
      const h = createHash('sha256');
      const put = (x: unknown) => h.update(JSON.stringify(x));
      let st = newGame(pack, { players, seed });
      put(st);
      let rng = seedState(`bot${seed}`);
      for (let step = 0; step < STEPS && !st.over; step++) {
        const legal = legalChoices(st);
        put(legal);
        if (!legal.length) break;
        const r = nextRandom(rng);
        rng = r.state;
        const pick = Math.floor(r.value * legal.length);
        const before = JSON.stringify(st);
        const other = apply(st, legal[(pick + 1) % legal.length].id);
        put(other.ok ? other.state : other.reason);
        const res = apply(st, legal[pick]);
        if (!res.ok) throw new Error(`${id}: a listed choice was refused: ${res.reason}`);
        const bad = apply(res.state, 'no-such-action x');
        put(bad.ok ? 'ok' : bad.reason);
        expect(JSON.stringify(st)).toBe(before);
        st = res.state;
        put(st);
        put(cardHolders(st));
      }
      put(viewFor(st, st.players[0]));
      put(standings(st));
      out[`${id} players=${players} seed=${seed}`] = h.digest('hex');
    }
  }
  return out;
}

describe('the engine plays the recorded games byte for byte', () => {
  const record = process.env.RECORD_ENGINE_HASHES === '1';
  const golden: Record<string, string> = record ? {} : JSON.parse(readFileSync(FIXTURE, 'utf8'));
  for (const id of PACKS) {
    it(id, () => {
      const got = gameHashes(id);
      if (record) Object.assign(golden, got);
      else for (const [k, v] of Object.entries(got)) expect(v, k).toBe(golden[k]);
      expect(Object.keys(got).length).toBeGreaterThan(0);
    });
  }
  // Holders are kept with a state and shared with its copies until a rule writes a field their roles
  // read (runtime/holders.ts): at every step they must be what a state that kept nothing computes.
  for (const dir of [...PACKS.map((id) => `test/packs/${id}`), 'content/smallworld-wow']) {
    it(`${dir}: kept card holders are never stale`, () => {
      const files = readPackFolder(dir);
      const pack = compile(files, { dependencies: dependenciesOf(dir, files) }).pack!;
      const fresh = (st: GameState) => attach(pack, JSON.parse(JSON.stringify(st)) as GameState);
      let rng = seedState('holders');
      let st = newGame(pack, { players: Math.min(pack.players.max, 3), seed: 7 });
      for (let step = 0; step < STEPS && !st.over; step++) {
        const legal = legalChoices(st, { labels: false });
        expect(legal.map((c) => c.id)).toEqual(legalChoices(fresh(st), { labels: false }).map((c) => c.id));
        expect(cardHolders(st)).toEqual(cardHolders(fresh(st)));
        if (!legal.length) break;
        const r = nextRandom(rng);
        rng = r.state;
        const res = apply(st, legal[Math.floor(r.value * legal.length)]);
        if (!res.ok) throw new Error(res.reason);
        st = res.state;
      }
      expect(st.choices.length).toBeGreaterThan(0);
    });
  }
  if (record) it('writes the record', () => writeFileSync(FIXTURE, `${JSON.stringify(golden, null, 2)}\n`));
});
