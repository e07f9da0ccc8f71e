/**
 * Actions offered together with the same domain and the same first checks share those checks'
 * answers in a listing (runtime/sharedChecks.ts). Which choices are listed must stay exactly the
 * choices `apply` accepts, and an illegal choice keeps the reason of its first failing `require`,
 * in both engines: checked here on every action and candidate of every state of a few games. The
 * `let price` is taken by `seize` from `raid`, listed first, after the shared checks and from
 * another place, only for the tiles whose `raid` checks reached it; `levy` takes it from `seize`
 * among the shared checks and reads it in a check of its own.
 */
import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame, type EngineName, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { RandomPicker } from '../bench/randomPlayout.ts';

const game = `
kinds:
  tile:
    state:
      owner: player?
      guarded: bool
      flag: banner?
  banner:
    roles:
      bearer: players where self in banners
  player:
    state:
      coins: number
      banners: list<banner>
entities:
  - tile: t1
  - tile: t2
  - tile: t3
  - tile: t4
  - tile: t5
  - banner: red
    rules: |
      action plant(t: tile in tiles) "Plant red on {t}" with seize {
        require canTake(t)
        require t.flag != self else "{t} already flies {self}"
        t.flag = self
      }
  - banner: blue
    rules: |
      action plant(t: tile in tiles) "Plant blue on {t}" with seize {
        require canTake(t)
        require t.flag != self else "{t} already flies {self}"
        t.flag = self
      }
rules: |
  check canTake(t: tile) {
    require t.owner != me else "{t} is yours"
    require not t.guarded else "{t} is guarded"
  }
  fn priceOf(t: tile): number = if t.owner == none then 1 else 2
  action seize(t: tile in tiles) "Seize {t}" {
    require canTake(t)
    let price = priceOf(t)
    require me.coins >= price else "seizing {t} costs {price} and you have {me.coins}"
    t.owner = me
    me.coins -= price
  }
  action levy(t: tile in tiles) "Levy {t}" {
    require canTake(t)
    let price = priceOf(t)
    require me.coins >= price else "seizing {t} costs {price} and you have {me.coins}"
    require price == 1 else "{t} is held: only a free tile is levied"
    t.guarded = true
  }
  action raid(t: tile in tiles) "Raid {t}" {
    require canTake(t)
    require me.coins < 2 else "a raid is for the poor"
    let price = priceOf(t)
    require price > 1 else "{t} holds nothing to raid"
    t.guarded = true
    me.coins += 1
  }
  action fortify(t: tile in (tiles where owner == me)) "Fortify {t}" {
    require not t.guarded else "{t} is guarded"
    t.guarded = true
  }
  action earn "Earn" {
    me.coins += 1
  }
  setup {
    for p in players {
      p.coins = 3
    }
    first(players).banners += [red]
    last(players).banners += [red, blue]
  }
  flow {
    loop max 12 {
      for p in players {
        turn p { offer p: raid, seize, levy, fortify, earn }
      }
    }
  }
`;

const ACTIONS = ['seize', 'levy', 'raid', 'fortify', 'red.plant', 'blue.plant'];
const TILES = ['t1', 't2', 't3', 't4', 't5'];

/** The reason `apply` gives for `id`, or null when it accepts it. */
function refusal(st: GameState, id: string): string | null {
  const r = apply(st, id);
  return r.ok ? null : r.reason;
}

describe('checks shared between actions in a listing', () => {
  for (const engine of ['interpreter', 'generated'] as EngineName[]) {
    it(`list exactly the choices apply accepts, refused for their first failing require (${engine})`, () => {
      const pack = compileOk(game, { min: 2, max: 2 });
      let shared = 0;
      for (let seed = 1; seed <= 4; seed++) {
        const pick = new RandomPicker(seed);
        let st = newGame(pack, { players: 2, seed, engine });
        while (!st.over) {
          const listed = new Set(legalChoices(st, { labels: false }).map((c) => c.id));
          for (const action of ACTIONS) {
            for (const t of TILES) {
              const id = `${action} ${t}`;
              const reason = refusal(st, id);
              expect(reason === null, `${id} at choice ${st.choices.length} of seed ${seed}: ${reason}`).toBe(listed.has(id));
            }
          }
          // Owned and guarded: "is yours" comes first, as written, for every action sharing it.
          const mine = TILES.find((t) => st.e[t].owner === st.prompt!.player && st.e[t].guarded === true);
          if (mine) {
            shared++;
            for (const action of ['seize', 'levy', 'raid']) expect(refusal(st, `${action} ${mine}`)).toBe(`${mine} is yours`);
          }
          const ids = [...listed];
          const r = apply(st, ids[pick.index(ids.length)]);
          expect(r.ok).toBe(true);
          st = r.state;
        }
      }
      expect(shared).toBeGreaterThan(0);
    });
  }
});
