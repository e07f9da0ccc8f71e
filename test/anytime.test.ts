/**
 * `anytime` actions: a card's action offered to its holders at every offer, whoever is being asked
 * (a reward card "playable at any time, even during other players' turns"). The interrupted offer
 * or choice is asked again afterwards, as it was; a `resolving` block (a card being resolved) and
 * the resolution of another `anytime` action offer none; choices by a player who is not being asked
 * carry that player (`card.action@p2`) so that a game is still its seed and its choices.
 */
import { describe, expect, it } from 'vitest';
import { apply, legalChoices, newGame, replay, type GameState } from '../runtime/index.ts';
import { runScenarios } from '../scenario/index.ts';
import { play } from './helpers/play.ts';
import { compileOk, diagnosticsOf } from './helpers/inlinePack.ts';

const game = `
kinds:
  charm:
    roles:
      active: players where self in charms
  player:
    state:
      charms: list<charm>
      score: number
  game:
    state:
      bonus: number
entities:
  - charm: luck
  - charm: haste
rules: |
  action gain "Gain" {
    me.score += 1 + game.bonus
  }
  action pass "Pass" { }
  action pick(n: number in 1..2) "Pick {n}" {
    me.score += n
  }
  flow {
    for p in players {
      turn p {
        offer p: gain, pass
        choose n in [1, 2] by p "A number" {
          p.score += n
        }
        offer p: gain, pass
      }
    }
  }
`;

const cards = `
  - charm: luck
    rules: |
      action use "Use luck" anytime {
        remove self from me.charms
        game.bonus += 10
      }
  - charm: haste
    rules: |
      action use(n: number in 1..2) "Use haste for {n}" anytime {
        require n <= count(players) else "too many"
        remove self from me.charms
        offer current: pick
        current.score += 100 * n
      }
`;

const pack = () => compileOk(game.replace(/entities:\n  - charm: luck\n  - charm: haste\n/, `entities:${cards}`));


describe('anytime actions', () => {
  it('are offered to their holder at another player’s offer, with the holder in the choice id', () => {
    const st = newGame(pack(), { players: 2, seed: 1, prepare: (s) => void (s.e.p2.charms = ['luck']) });
    const ids = legalChoices(st).map((c) => `${c.player}:${c.id}`);
    expect(ids).toEqual(['p1:gain', 'p1:pass', 'p2:luck.use@p2']);
    expect(legalChoices(st).find((c) => c.player === 'p2')!.label).toBe('Use luck');
  });

  it('interrupt the offer, which is asked again afterwards, and are recorded with their player', () => {
    let st = newGame(pack(), { players: 2, seed: 1, prepare: (s) => void (s.e.p2.charms = ['luck']) });
    st = play(st, 'luck.use@p2');
    expect(st.e.game.bonus).toBe(10);
    expect(st.e.p2.charms).toEqual([]);
    expect(st.prompt?.player).toBe('p1');
    expect(legalChoices(st).map((c) => c.id)).toEqual(['gain', 'pass']);
    st = play(st, 'gain');
    expect(st.e.p1.score).toBe(11);
    expect(st.choices).toEqual(['luck.use@p2', 'gain']);
    expect(st.log.some((l) => l.player === 'p2' && l.text.includes('Use luck'))).toBe(true);
  });

  it('may be taken by the player being asked, without a player in the id', () => {
    let st = newGame(pack(), { players: 2, seed: 1, prepare: (s) => void (s.e.p1.charms = ['luck']) });
    expect(legalChoices(st).map((c) => c.id)).toContain('luck.use');
    st = play(st, 'luck.use', 'gain');
    expect(st.e.p1.score).toBe(11);
  });

  it('are offered at a `choose` too, which is asked again with its options, but not while another anytime action is being resolved', () => {
    let st = newGame(pack(), { players: 2, seed: 1, prepare: (s) => void (s.e.p2.charms = ['luck', 'haste']) });
    st = play(st, 'pass');
    expect(st.prompt?.kind).toBe('choose');
    expect(legalChoices(st).map((c) => c.id)).toEqual(['choose 1', 'choose 2', 'luck.use@p2', 'haste.use@p2 1', 'haste.use@p2 2']);
    st = play(st, 'luck.use@p2');
    expect(st.e.game.bonus).toBe(10);
    expect(legalChoices(st).map((c) => c.id)).toEqual(['choose 1', 'choose 2', 'haste.use@p2 1', 'haste.use@p2 2']);
    st = play(st, 'choose 1');
    st = play(st, 'haste.use@p2 2');
    // haste's own offer of `pick` to the current player: luck cannot be played inside it
    expect(legalChoices(st).map((c) => c.id)).toEqual(['pick 1', 'pick 2']);
    st = play(st, 'pick 2');
    expect(st.e.p1.score).toBe(1 + 2 + 200);
    // back at the interrupted offer; luck was used at the choice
    expect(legalChoices(st).map((c) => c.id)).toEqual(['gain', 'pass']);
  });

  it('are not offered inside a `resolving` block, at its choices or offers, before or after a pick', () => {
    const resolvingGame = game.replace(
      `        choose n in [1, 2] by p "A number" {
          p.score += n
        }`,
      `        resolving {
          choose n in [1, 2] by p "A number" {
            p.score += n
          }
          offer p: pick
        }`,
    );
    expect(resolvingGame).not.toBe(game);
    const resolvingPack = compileOk(resolvingGame.replace(/entities:\n  - charm: luck\n  - charm: haste\n/, `entities:${cards}`));
    let st = newGame(resolvingPack, { players: 2, seed: 1, prepare: (s) => void (s.e.p2.charms = ['luck']) });
    st = play(st, 'pass');
    expect(legalChoices(st).map((c) => c.id)).toEqual(['choose 1', 'choose 2']);
    expect(apply(st, 'luck.use@p2').ok).toBe(false);
    st = play(st, 'choose 2');
    // still resolving: the offer inside the block
    expect(legalChoices(st).map((c) => c.id)).toEqual(['pick 1', 'pick 2']);
    st = play(st, 'pick 1');
    // out of the block: luck is open again
    expect(legalChoices(st).map((c) => c.id)).toEqual(['gain', 'pass', 'luck.use@p2']);
  });

  it('are refused to a player who does not hold them, and keep their legality checks', () => {
    const st = newGame(pack(), { players: 2, seed: 1, prepare: (s) => void (s.e.p2.charms = ['haste']) });
    expect(apply(st, 'luck.use@p2').ok).toBe(false);
    expect(apply(st, 'gain', { player: 'p2' })).toMatchObject({ ok: false, reason: expect.stringContaining('must act now') });
    expect(legalChoices(st).map((c) => c.id)).toEqual(['gain', 'pass', 'haste.use@p2 1', 'haste.use@p2 2']);
  });

  it('replay the same game from the recorded choices', () => {
    const options = { players: 2, seed: 3, prepare: (s: GameState) => void (s.e.p2.charms = ['luck']) };
    const st = play(newGame(pack(), options), 'luck.use@p2', 'gain', 'choose 2', 'pass');
    const again = replay(pack(), options, st.choices);
    expect(again.stoppedAt).toBeUndefined();
    expect(again.state.e).toEqual(st.e);
  });

  it('let a scenario step name the player who steps in', () => {
    const [r] = runScenarios(pack(), [
      {
        path: 'scenarios/anytime.yaml',
        text: `scenario: p2 plays luck in p1's turn
seed: 1
players: 2
setup:
  p2.charms: [luck]
steps:
  - p2: luck.use
    expect:
      game.bonus: 10
      prompt: p1
  - p2: pass
    refused: must act now
  - p1: gain
expect:
  p1.score: 11
`,
      },
    ]);
    expect(r.failures).toEqual([]);
    expect(r.passed).toBe(true);
  });

  it('a card action needs `with` or `anytime` to be offered at all', () => {
    const d = diagnosticsOf(game.replace(/entities:\n  - charm: luck\n  - charm: haste\n/, `entities:\n  - charm: luck\n    rules: |\n      action use "Use" {\n        game.bonus += 1\n      }\n`));
    expect(d.map((x) => x.code)).toContain('RB0548');
    expect(d.find((x) => x.code === 'RB0548')!.hint).toContain('anytime');
  });
});
