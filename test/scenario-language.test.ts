import { describe, expect, it } from 'vitest';
import { compile, type CompiledPack, type SourceFile } from '../compiler/index.ts';
import { runScenarios, type Failure, type ScenarioResult } from '../scenario/index.ts';

/**
 * What a scenario can say beyond choices and field checks: forced rolls, `eval` of the pack's own
 * expressions, log lines that must not appear, refusals matched by their words, checks at a moment
 * inside a step, and the hints when a check fails. Each runs the real compiler and runtime on a
 * small pack written here, with dice and a turn that ends by itself.
 */
const dicePack: SourceFile[] = [
  { path: 'pack.yaml', text: 'id: dice\nversion: 0.1.0\nname: { en: Dice }\nlanguages: [en]\nplayers: { min: 2, max: 2 }\n' },
  {
    path: 'game.yaml',
    text: [
      'dice:',
      '  d6: [0, 0, 1, 2, 3, 4]',
      'kinds:',
      '  space:',
      '    props:',
      '      height: number',
      '    state:',
      '      owner: player?',
      '      guards: number',
      '  player:',
      '    state:',
      '      points: number',
      '      coins: number',
      '  game:',
      '    state:',
      '      omen: number',
      'entities:',
      '  - space: hill',
      '    height: 2',
      '  - space: marsh',
      '    height: 0',
      'scoring:',
      '  score: it.points',
      'rules: |',
      '  pipeline attackCost(s: space): number min 1 = 2 + s.height + s.guards',
      '  action attack(s: space) "Attack {s}" {',
      '    require s.owner != me else "{s} is already yours"',
      '    let bonus = roll(d6)',
      '    require bonus + 2 >= attackCost(s) else "too few troops for {s}, even with the reinforcement die"',
      '    s.owner = me',
      '    me.points += 1',
      '  }',
      '  action pray "Pray" { me.coins += random(3) }',
      '  action pass "Pass" { }',
      '  flow {',
      '    game.omen = random(6)',
      '    for round in 1..2 {',
      '      for p in players {',
      '        turn p {',
      '          offer p: attack, pray, pass',
      '          log "{p} ends the turn"',
      '          p.coins += 1',
      '        }',
      '      }',
      '    }',
      '  }',
      '',
    ].join('\n'),
  },
];

let compiled: CompiledPack | undefined;
function dice(): CompiledPack {
  if (!compiled) {
    const r = compile(dicePack);
    expect(r.diagnostics).toEqual([]);
    compiled = r.pack!;
  }
  return compiled;
}

function run(text: string): ScenarioResult {
  const [r] = runScenarios(dice(), [{ path: 'test.yaml', text }]);
  return r;
}

const messages = (r: ScenarioResult) => r.failures.map((f) => f.message);
const at = (f: Failure) => `${f.at.line}:${f.at.column}`;

describe('rolls: forced results of the next rolls', () => {
  it('a step takes its rolls before the generator, so a conquest succeeds or fails as the author says', () => {
    const head = 'scenario: Rolls\nseed: 1\nplayers: 2\nsteps:\n';
    const won = run(`${head}  - p1: attack marsh\n    rolls: [0]\n    expect:\n      marsh.owner: p1\n      log: "rolled d6: 0"\n`);
    expect(messages(won)).toEqual([]);
    const lost = run(`${head}  - p1: attack hill\n    rolls: [1]\n    refused: too few troops for Hill\n  - p1: attack hill\n    rolls: [2]\n    expect:\n      hill.owner: p1\n`);
    expect(messages(lost)).toEqual([]);
  });

  it('rolls at the top of a scenario are the flow start’s, and `random` takes numbers from 1 to n', () => {
    const r = run('scenario: Omen\nseed: 1\nplayers: 2\nrolls: [5]\nsteps:\n  - p1: pray\n    rolls: [3]\nexpect:\n  game.omen: 5\n  p1.coins: 4\n');
    expect(messages(r)).toEqual([]);
  });

  it('a roll left unused fails at `rolls:`; a result the die cannot show refuses the step and says what it could be', () => {
    const unused = run('scenario: Too many\nseed: 1\nplayers: 2\nsteps:\n  - p1: pass\n    rolls: [1, 2]\n');
    expect(messages(unused)).toEqual(['step 1 (`p1: pass`) used 0 of the 2 forced rolls']);
    expect(at(unused.failures[0])).toBe('6:5');
    const wrong = run('scenario: No such face\nseed: 1\nplayers: 2\nsteps:\n  - p1: attack marsh\n    rolls: [5]\n');
    expect(wrong.failures[0].reason).toMatch(/^the forced result 5 is not a face of the die d6 \(0, 0, 1, 2, 3, 4\) \(game\.yaml:\d+\)$/);
  });
});

describe('eval: an expression of the pack, checked by its own checker', () => {
  it('is true, or fails showing each side of the comparison', () => {
    const ok = run('scenario: Costs\nseed: 1\nplayers: 2\nsetup:\n  hill.guards: 1\nexpect:\n  eval:\n    - attackCost(hill) == 5\n    - attackCost(marsh) == 2 and me == current\n');
    expect(messages(ok)).toEqual([]);
    const bad = run('scenario: Wrong cost\nseed: 1\nplayers: 2\nexpect:\n  eval: "attackCost(hill) == 3"\n');
    expect(messages(bad)).toEqual(['`eval`: `attackCost(hill) == 3` is false at the start']);
    expect(bad.failures[0].hint).toBe('`attackCost(hill)` is 4');
  });

  it('reports the checker’s own diagnostics at the characters of the expression, with its did-you-mean', () => {
    const r = run('scenario: Typo\nseed: 1\nplayers: 2\nexpect:\n  eval: attackCost(hil) == 4\n');
    expect(r.failures.map((f) => [at(f), f.message, f.hint])).toEqual([['5:20', '`eval`: unknown name `hil` (RB0521)', 'did you mean `hill`?']]);
    const notBool = run('scenario: A number\nseed: 1\nplayers: 2\nexpect:\n  eval: attackCost(hill)\n');
    expect(messages(notBool)).toEqual(['`eval` checks a condition, but `attackCost(hill)` is a number']);
    expect(notBool.failures[0].hint).toBe('compare it with what it should be, e.g. `attackCost(hill) == 4`');
  });
});

describe('notLog: a log line that must not appear', () => {
  it('fails when a step writes it, and passes when it does not', () => {
    const head = 'scenario: Quiet\nseed: 1\nplayers: 2\nsteps:\n  - p1: pass\n    expect:\n      notLog: ';
    expect(messages(run(`${head}rolled\n`))).toEqual([]);
    const r = run(`${head}ends the turn\n`);
    expect(messages(r)).toEqual(['a log entry of this step contains "ends the turn" after step 1 (`p1: pass`)']);
    expect(r.failures[0].found).toBe('Player 1 ends the turn');
  });
});

describe('refused: the reason’s words', () => {
  it('match in order, whatever the case, punctuation, quotes or backticks', () => {
    const head = 'scenario: Words\nseed: 1\nplayers: 2\nsetup:\n  marsh.owner: p1\nsteps:\n  - p1: attack marsh\n    refused: ';
    expect(messages(run(`${head}"marsh is ALREADY yours."\n`))).toEqual([]);
    const other = run(`${head}yours already\n`);
    expect(messages(other)).toEqual(['step 1 (`p1: attack marsh`) was refused, but for another reason']);
    expect(other.failures[0].found).toBe('marsh is already yours');
  });
});

describe('when: checks at a moment inside a step', () => {
  it('see the state right after the step logs the entry, before the rules after it run', () => {
    const r = run(
      [
        'scenario: End of turn',
        'seed: 1',
        'players: 2',
        'steps:',
        '  - p1: pass',
        '    when:',
        '      - logged: ends the turn',
        '        expect:',
        '          p1.coins: 0',
        '      - logged: "Turn 2"',
        '        expect:',
        '          p1.coins: 1',
        '          prompt: none',
        '    expect:',
        '      prompt: p2',
        '',
      ].join('\n'),
    );
    expect(messages(r)).toEqual([]);
  });

  it('a moment whose entry never comes fails at its `logged:`', () => {
    const r = run('scenario: Never\nseed: 1\nplayers: 2\nsteps:\n  - p1: pass\n    when:\n      - logged: game over\n        expect:\n          p1.coins: 0\n');
    expect(messages(r)).toEqual(['step 1 (`p1: pass`) wrote no log entry containing "game over", so the checks of that moment were not made']);
    expect(at(r.failures[0])).toBe('7:9');
  });
});

describe('hints when a check fails', () => {
  it('a wrong `prompt` lists the choices open to the player who is to act', () => {
    const r = run('scenario: Whose turn\nseed: 1\nplayers: 2\nexpect:\n  prompt: p2\n');
    expect(r.failures[0].hint).toBe('legal now for p1: attack hill, attack marsh, pray, pass');
  });

  it('an entity id in a choice that names nothing gets a did-you-mean', () => {
    const r = run('scenario: Typo in a choice\nseed: 1\nplayers: 2\nsteps:\n  - p1: attack mrsh\n');
    expect(r.failures[0].hint).toBe('`mrsh` names nothing in this pack: did you mean `marsh`?; legal now for p1: attack hill, attack marsh, pray, pass');
  });

  it('an entity id in a check that names nothing gets a did-you-mean', () => {
    const r = run('scenario: Typo in a check\nseed: 1\nplayers: 2\nexpect:\n  hil.owner: ~\n');
    expect([r.failures[0].message, r.failures[0].hint]).toEqual(['this pack has nothing called `hil`', 'did you mean `hill`?']);
  });
});
