/**
 * Prototype pollution (issue #10, item 1): a pack's names are keys of the compiler's and the
 * runtime's tables, so an entity `__proto__` or an action `constructor` must neither reach
 * `Object.prototype` nor crash a game. The compiler refuses the names JavaScript reserves; the
 * runtime is safe without that check too, which the second half shows on a compiled pack whose
 * names are renamed after compiling (as a tampered or hand-made pack would have them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { CompiledPack } from '../../runtime/compiled.ts';
import { apply, attach, legalChoices, newGame, replay, standings, viewFor, type GameState } from '../../runtime/index.ts';
import { compileOk, diagnosticsOf } from '../helpers/inlinePack.ts';

const HOSTILE = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];

/** Stand-ins the compiler accepts, renamed to `HOSTILE` names in the compiled pack. */
const game = (n: { proto: string; ctor: string; tostr: string; hasown: string; event: string }) => `
kinds:
  token:
    state:
      points2: number
  player:
    state:
      score: number
  game:
    state:
      picked: list<token>
entities:
  - token: ${n.proto}
  - token: ${n.ctor}
  - token: ${n.tostr}
  - token: ${n.hasown}
rules: |
  event ${n.event}(t: token)
  action ${n.proto} "Proto" {
    ${n.proto}.points2 = 7
    emit ${n.event}(${n.proto})
  }
  action ${n.ctor}(t: token) limit 1 per turn {
    t.points2 += 1
    me.score += t.points2
  }
  action ${n.tostr} {
    choose t in tokens by me "Pick one" {
      game.picked += [t]
    }
  }
  action ${n.hasown} "Pass" { }
  on ${n.event}(t) {
    t.points2 += 1
  }
  flow {
    loop max 6 {
      for p in players {
        turn p {
          repeat 2 {
            offer p: ${n.proto}, ${n.ctor}, ${n.tostr}, ${n.hasown}
          }
        }
      }
    }
  }
scoring:
  score: it.score
`;

const stand = { proto: 'zproto', ctor: 'zctor', tostr: 'ztostr', hasown: 'zhasown', event: 'zevent' };
const renames: Record<string, string> = { zproto: '__proto__', zctor: 'constructor', ztostr: 'toString', zhasown: 'hasOwnProperty', zevent: 'constructor' };

/** Every key and string of the compiled pack's data and rules with the stand-ins renamed. */
function renamed(pack: CompiledPack): CompiledPack {
  const to = (s: string) => (Object.hasOwn(renames, s) ? renames[s] : s);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return to(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out = Object.create(null) as Record<string, unknown>;
    for (const k of Object.keys(v)) out[to(k)] = walk((v as Record<string, unknown>)[k]);
    return out;
  };
  const { kindOf: _k, expression: _e, ...data } = pack;
  const out = walk(data) as CompiledPack;
  out.kindOf = (id) => out.entities[id]?.kind ?? pack.kindOf(id);
  return out;
}

function untouched(): void {
  const plain = {} as Record<string, unknown>;
  expect(plain.points2).toBeUndefined();
  expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(typeof plain.toString).toBe('function');
  expect(plain.hasOwnProperty).toBe(Object.prototype.hasOwnProperty);
  expect(Object.keys(Object)).toEqual([]);
}

const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

afterEach(untouched);

describe('names JavaScript reserves', () => {
  it('the compiler refuses an entity `__proto__` and a rule writing `__proto__.points2`, with a positioned diagnostic', () => {
    const text = game({ ...stand, proto: '__proto__' });
    const errors = diagnosticsOf(text).filter((d) => d.severity === 'error');
    expect(errors.length).toBeGreaterThan(0);
    const named = errors.find((d) => d.message.includes('__proto__'));
    expect(named).toBeDefined();
    expect(named!.code).toMatch(/^RB\d{4}$/);
    expect(named!.file).toBe('game.yaml');
    expect(named!.line).toBeGreaterThan(0);
  });

  for (const name of HOSTILE) {
    it(`an action, an event and an entity named \`${name}\` get a diagnostic, or play fine`, () => {
      const text = game({ proto: name, ctor: 'zctor', tostr: 'ztostr', hasown: 'zhasown', event: name === '__proto__' ? 'zevent' : name });
      const errors = diagnosticsOf(text).filter((d) => d.severity === 'error');
      if (errors.length) {
        expect(errors.some((d) => d.message.includes(name))).toBe(true);
        return;
      }
      const st = newGame(compileOk(text), { players: 2, seed: 1 });
      expect(apply(st, name).ok).toBe(true);
    });
  }
});

describe('the runtime, whatever names a compiled pack holds', () => {
  const pack = renamed(compileOk(game(stand)));

  it('a rule writing `__proto__.points2 = 7` changes that entity’s record, not every object', () => {
    let st = newGame(pack, { players: 2, seed: 1 });
    expect(legalChoices(st).map((c) => c.id)).toEqual([
      '__proto__',
      'constructor __proto__',
      'constructor constructor',
      'constructor toString',
      'constructor hasOwnProperty',
      'toString',
      'hasOwnProperty',
    ]);
    const r = apply(st, '__proto__');
    expect(r.ok).toBe(true);
    st = (r as { state: GameState }).state;
    // 7 from the action, 1 from the trigger on the event called `constructor`.
    expect(st.e['__proto__'].points2).toBe(8);
    expect(JSON.parse(JSON.stringify(st)).e['__proto__'].points2).toBe(8);
    expect(st.log.map((l) => l.text)).toContain('on zevent');
  });

  it('actions, parameters, limits and choices named `constructor`, `toString`, `hasOwnProperty` play, refuse and replay', () => {
    let st = newGame(pack, { players: 2, seed: 2 });
    const ids: string[] = [];
    const step = (id: string) => {
      const r = apply(st, id);
      if (!r.ok) throw new Error(`${id} refused: ${r.reason}`);
      st = r.state;
      ids.push(id);
    };
    step('constructor toString');
    // `limit 1 per turn`, counted under the key `constructor@p1`.
    const again = apply(st, 'constructor toString');
    expect(again.ok).toBe(false);
    expect(!again.ok && again.reason).toMatch(/once per turn/);
    expect(apply(st, 'valueOf').ok).toBe(false);
    expect(apply(st, 'constructor valueOf').ok).toBe(false);
    step('toString');
    expect(legalChoices(st).map((c) => c.id)).toEqual(['choose __proto__', 'choose constructor', 'choose toString', 'choose hasOwnProperty']);
    const before = JSON.stringify(st);
    expect(apply(st, 'choose valueOf').ok).toBe(false);
    expect(JSON.stringify(st)).toBe(before);
    step('choose hasOwnProperty');
    step('hasOwnProperty');
    step('constructor __proto__');
    const record = (id: string) => st.e[id];
    expect(record('toString').points2).toBe(1);
    expect(record('__proto__').points2).toBe(1);
    expect(st.e.game.picked).toEqual(['hasOwnProperty']);
    expect(standings(st).map((s) => s.score)).toEqual([1, 1]);
    expect(JSON.stringify(replay(pack, { players: 2, seed: 2 }, ids).state)).toBe(JSON.stringify(st));
    expect(JSON.stringify(viewFor(st, 'p1').e)).toBe(JSON.stringify(st.e));
  });

  it('a state saved as JSON and loaded again plays on the same', () => {
    let st = newGame(pack, { players: 2, seed: 3 });
    st = (apply(st, '__proto__') as { state: GameState }).state;
    const loaded = attach(pack, JSON.parse(JSON.stringify(st)) as GameState);
    const a = apply(st, 'constructor constructor');
    const b = apply(loaded, 'constructor constructor');
    expect(a.ok && b.ok).toBe(true);
    expect(JSON.stringify(b.state)).toBe(JSON.stringify(a.state));
  });

  it('bots play whole games of it without a crash', () => {
    for (const seed of [1, 2, 3]) {
      let st = newGame(pack, { players: 3, seed });
      for (let i = 0; i < 200 && !st.over; i++) {
        const legal = legalChoices(st);
        const r = apply(st, legal[(i * 7 + seed) % legal.length]);
        expect(r.ok).toBe(true);
        st = r.state;
      }
      expect(st.over).toBe(true);
    }
  });
});
