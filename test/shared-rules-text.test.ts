/**
 * One rules text on two cards of different kinds: what the text means depends on the card (`self`
 * is of its kind), so each card's rule is checked and lowered for its own kind — a field of one
 * kind's state is not read as the other kind's prop, a writer's limit on one kind's field is
 * reported at that kind's card whichever card comes first — and a session edit of one of the two
 * cards gives what a cold compile gives.
 */
import { describe, expect, it } from 'vitest';
import { analyze, compile, CompileSession, type SourceFile } from '../compiler/index.ts';
import { legalChoices, newGame } from '../runtime/index.ts';
import { packFiles } from './helpers/inlinePack.ts';
import { play } from './helpers/play.ts';

const USE = `action use "Use" anytime {
        me.score += self.charge
      }`;
const BOOST = `action boost "Boost" anytime {
        self.charge += 1
      }`;

/** A charm whose `charge` is a prop and a relic whose `charge` is state (limited to `award` when `limited`), each holding `rules`; the relic first when `relicFirst`. */
function game(rules: { charm: string; relic: string }, options: { relicFirst?: boolean; limited?: boolean } = {}): { game: string; relics: string } {
  const charge = options.limited ? '{ type: number, raisedOnlyBy: [award] }' : 'number';
  const charm = `  - charm: luck\n    charge: 3\n    rules: |\n      ${rules.charm}\n`;
  const relic = `  - relic: idol\n    rules: |\n      ${rules.relic}\n`;
  const head = `kinds:
  charm:
    props:
      charge: number
    state:
      spent: number
    roles:
      active: players where self in charms
  relic:
    state:
      charge: ${charge}
    roles:
      active: players where self in relics
  player:
    state:
      charms: list<charm>
      relics: list<relic>
      score: number
rules: |
  action pass "Pass" { }
  proc award(r: relic) {
    r.charge += 1
  }
  flow {
    for p in players {
      turn p { offer p: pass }
    }
  }
entities:
`;
  return options.relicFirst ? { game: head + relic + charm, relics: '' } : { game: head + charm, relics: `entities:\n${relic}` };
}

function files(g: { game: string; relics: string }): SourceFile[] {
  const out = packFiles(g.game, { min: 2, max: 2 });
  return g.relics ? [...out, { path: 'relics.yaml', text: g.relics }] : out;
}

const where = (ds: Array<{ code: string; file: string; line: number }>, code: string) => ds.filter((d) => d.code === code).map((d) => `${d.file}:${d.line}`);

describe('one rules text on cards of different kinds', () => {
  for (const relicFirst of [false, true]) {
    const order = relicFirst ? 'the relic first' : 'the charm first';

    it(`reads each card's own field in play (${order})`, () => {
      const r = compile(files(game({ charm: USE, relic: USE }, { relicFirst })));
      expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      let st = newGame(r.pack!, { players: 2, seed: 1, prepare: (s) => void Object.assign(s.e, { p1: { ...s.e.p1, charms: ['luck'], relics: ['idol'] }, idol: { charge: 5 } }) });
      expect(legalChoices(st).map((c) => c.id).sort()).toEqual(['idol.use', 'luck.use', 'pass']);
      st = play(st, 'luck.use');
      expect(st.e.p1.score).toBe(3);
      st = play(st, 'idol.use');
      expect(st.e.p1.score).toBe(8);
    });

    it(`reports a write past a field's writers at that kind's card only (${order})`, () => {
      // The charm's `charge` is its state here, so that the same text writes it too.
      const g = game({ charm: BOOST, relic: BOOST }, { relicFirst, limited: true });
      g.game = g.game.replace('    props:\n      charge: number\n    state:\n      spent: number', '    state:\n      charge: number');
      const text = files(g);
      const relicAt = relicFirst ? `game.yaml:${g.game.split('\n').indexOf('  - relic: idol') + 4}` : 'relics.yaml:5';
      expect(where(analyze(text).diagnostics, 'RB0557')).toEqual([relicAt]);
    });
  }

  it('gives in a session what a cold compile gives, the lowered pack too, as one card of the two is edited', () => {
    const steps = [
      { charm: BOOST, relic: BOOST },
      { charm: BOOST, relic: BOOST.replace('+= 1', '+= 2') },
      { charm: BOOST, relic: BOOST },
      { charm: BOOST.replace('+= 1', '+= 2'), relic: BOOST },
      { charm: BOOST, relic: USE },
      { charm: USE, relic: USE },
    ];
    const session = new CompileSession();
    for (const [i, rules] of steps.entries()) {
      const g = game(rules, { limited: i < 4 });
      if (i < 4) g.game = g.game.replace('    props:\n      charge: number\n    state:\n      spent: number', '    state:\n      charge: number');
      const text = files(g);
      const warm = session.analyze(text, { lower: true });
      const cold = compile(text);
      expect(warm.diagnostics, `step ${i}`).toEqual(cold.diagnostics);
      expect(JSON.stringify(warm.pack), `step ${i}`).toBe(JSON.stringify(cold.pack));
      if (i < 4) expect(where(cold.diagnostics, 'RB0557'), `step ${i}`).toEqual(['relics.yaml:5']);
    }
  });
});
