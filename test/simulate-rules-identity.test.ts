/**
 * Small World's rules play the recorded games byte for byte: the rules may be rewritten for speed
 * (content/smallworld-wow/rules), never in what they do. Random bots play seeds 1–8 at 2 to 5 players
 * of the pack and of its team variant, which plays the same rules; every state, the legal choices
 * listed at every step and the simulation's summary of each game are hashed. The hashes were recorded
 * before any rewrite (test/engine-identity.test.ts holds the same record for the bench packs, not for
 * Small World). Run with RECORD_RULES_HASHES=1 to print them again, only when the rules change on purpose.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { apply, cardHolders, legalChoices, newGame, standings } from '../runtime/index.ts';
import { nextRandom, seedState } from '../runtime/rng.ts';
import { playGame } from '../simulate/playout.ts';

const RECORDED: Record<string, string> = {
  'content/smallworld-wow': '197eab1753ad167b',
  'content/smallworld-wow-teams': 'da73a5da662d5d71',
};

function rulesHash(dir: string): string {
  const files = readPackFolder(dir);
  const pack = compile(files, { dependencies: dependenciesOf(dir, files) }).pack;
  if (!pack) throw new Error(`${dir} does not compile`);
  const all = createHash('sha256');
  for (let seed = 1; seed <= 8; seed++) {
    const players = 2 + ((seed - 1) % 4);
    const h = createHash('sha256');
    const put = (x: unknown) => h.update(JSON.stringify(x));
    let st = newGame(pack, { players, seed });
    put(st);
    let rng = seedState(`bot${seed}`);
    for (let step = 0; step < 3000 && !st.over; step++) {
      const legal = legalChoices(st);
      put(legal);
      if (!legal.length) break;
      const r = nextRandom(rng);
      rng = r.state;
      const res = apply(st, legal[Math.floor(r.value * legal.length)]);
      if (!res.ok) throw new Error(`${dir} seed ${seed}: a listed choice was refused: ${res.reason}`);
      st = res.state;
      put(st);
      put(cardHolders(st));
    }
    expect(st.over, `${dir} seed ${seed} ends`).toBe(true);
    put(standings(st));
    put(playGame(pack, { players, seed, agents: ['random'], maxSteps: 5000 }));
    all.update(h.digest('hex'));
  }
  return all.digest('hex').slice(0, 16);
}

describe("Small World's rules play the recorded games", () => {
  for (const [dir, recorded] of Object.entries(RECORDED)) {
    it(dir, { timeout: 180_000 }, () => {
      const got = rulesHash(dir);
      if (process.env.RECORD_RULES_HASHES === '1') console.log(`'${dir}': '${got}'`);
      expect(got).toBe(recorded);
    });
  }
});
