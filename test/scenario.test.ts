import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { compile, type CompiledPack, type SourceFile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { formatResults, readScenarioFile, runScenarios, type Failure, type ScenarioResult } from '../scenario/index.ts';
import scenarioSchema from '../schemas/scenario.schema.json' with { type: 'json' };

const tinyDir = 'test/packs/tiny';
const fixtures = 'test/fixtures/scenarios';

let compiled: CompiledPack | undefined;
function tiny(): CompiledPack {
  if (!compiled) {
    const r = compile(readPackFolder(tinyDir));
    expect(r.diagnostics).toEqual([]);
    compiled = r.pack!;
  }
  return compiled;
}

const source = (path: string): SourceFile => ({ path, text: readFileSync(path, 'utf8') });
const fixture = (name: string) => source(`${fixtures}/${name}`);

/** The one result of a one-scenario file, or the result of the scenario named. */
function run(name: string, scenario?: string): ScenarioResult {
  const results = runScenarios(tiny(), [fixture(name)]);
  const r = scenario ? results.find((x) => x.scenario === scenario) : results[0];
  expect(r, `no result for ${scenario ?? name}`).toBeDefined();
  return r!;
}

/** Line, column, message, expected, found, reason and hint of a failure, for compact assertions. */
function summary(f: Failure) {
  return { at: `${f.at.file}:${f.at.line}:${f.at.column}`, message: f.message, expected: f.expected, found: f.found, reason: f.reason, hint: f.hint };
}

describe('scenarios of the tiny pack', () => {
  const files = readdirSync(join(tinyDir, 'scenarios')).map((f) => source(`${tinyDir}/scenarios/${f}`));

  it('all pass', () => {
    const results = runScenarios(tiny(), files);
    expect(results.length).toBeGreaterThanOrEqual(3);
    expect(results.filter((r) => !r.passed), formatResults(results)).toEqual([]);
    expect(formatResults(results).split('\n').at(-1)).toBe(`${results.length} passed, 0 failed`);
  });

  it('are valid against schemas/scenario.schema.json, the schema editors use', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(scenarioSchema);
    for (const f of files) expect(validate(parse(f.text)), `${f.path}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });

  it('keep their own line and column', () => {
    const read = readScenarioFile(files.find((f) => f.path.endsWith('claiming.yaml'))!);
    expect(read.problems).toEqual([]);
    const [first, second] = read.scenarios;
    expect([first.name, first.at.line, first.at.column]).toEqual(['Claiming a hill scores two points', 2, 3]);
    expect([second.name, second.at.line]).toEqual(['A whole game ends with standings by points', 24]);
    expect(first.steps[1]).toMatchObject({ player: 'p2', choice: 'claim b', refused: { text: 'taken' }, at: { line: 14, column: 7 } });
    expect(first.setup.map((e) => [e.key, e.value, e.keyAt.line])).toEqual([
      ['a.owner', 'p2', 6],
      ['p1.points', 3, 7],
    ]);
  });
});

describe('a failing scenario reports file, line, column, expected and found', () => {
  it('a wrong value after a step', () => {
    const r = run('wrong-value.yaml');
    expect(r.passed).toBe(false);
    expect(r.failures.map(summary)).toEqual([
      { at: `${fixtures}/wrong-value.yaml:9:7`, message: '`b.owner` is wrong after step 1 (`p1: claim b`)', expected: 'p2', found: 'p1', reason: undefined, hint: undefined },
    ]);
    expect(r.failures[0].excerpt).toBe('      b.owner: p2');
  });

  it('an unexpected refusal, with the rule’s reason, stops the scenario', () => {
    const r = run('unexpected-refusal.yaml');
    expect(r.steps).toBe(0);
    expect(r.failures.map(summary)).toEqual([
      { at: `${fixtures}/unexpected-refusal.yaml:9:5`, message: 'step 1 (`p1: claim a`) was refused', expected: undefined, found: undefined, reason: 'a is taken (game.yaml:35)', hint: 'legal now for p1: claim b, claim c, pass' },
    ]);
  });

  it('a choice marked `refused` that was applied, and a refusal for another reason', () => {
    const applied = run('refusals.yaml', 'A legal choice marked refused');
    expect(applied.failures.map(summary)).toEqual([
      { at: `${fixtures}/refusals.yaml:8:7`, message: 'step 1 (`p1: claim a`) should have been refused, but it was applied', expected: 'refused: taken', found: 'applied', reason: undefined, hint: '`claim a` is legal here' },
    ]);
    // the scenario goes on from the state its author assumed: p1 still acts, and claims b
    expect(applied.steps).toBe(1);
    const other = run('refusals.yaml', 'A refusal for another reason');
    expect(other.failures.map(summary)).toEqual([
      { at: `${fixtures}/refusals.yaml:17:7`, message: 'step 2 (`p2: claim a`) was refused, but for another reason', expected: 'too far', found: 'a is taken', reason: 'a is taken', hint: undefined },
    ]);
  });

  it('a choice out of turn is refused, naming who must act', () => {
    const r = run('wrong-turn.yaml');
    expect(r.failures.map(summary)).toEqual([
      { at: `${fixtures}/wrong-turn.yaml:6:5`, message: 'step 1 (`p2: pass`) was refused', expected: undefined, found: undefined, reason: 'Player 1 (p1) must act now, not Player 2 (p2)', hint: 'legal now for p1: claim a, claim b, claim c, pass' },
    ]);
  });

  it('every kind of final check', () => {
    const r = run('final-checks.yaml');
    const at = (line: number, col = 3) => `${fixtures}/final-checks.yaml:${line}:${col}`;
    expect(r.failures.map((f) => [`${f.at.file}:${f.at.line}:${f.at.column}`, f.expected, f.found])).toEqual([
      [at(9), 'p2', 'p1'],
      [at(10), 'Claim z', ['Turn 1: Player 1', 'Player 1: Claim a', 'Turn 2: Player 2', 'Player 2: Claim c', 'Turn 3: Player 1']],
      [at(11), ['claim b', 'claim c'], ['claim b', 'pass']],
      [at(12), ['pass'], ['claim b', 'pass']],
      [at(13), ['p2', 'p1'], ['p1', 'p2']],
      [at(14), 'forest', 'hills'],
    ]);
    expect(r.failures.map((f) => f.message)).toEqual([
      '`prompt` is wrong at the end (after step 2)',
      'no log entry contains "Claim z" at the end (after step 2)',
      '`claim c` is not legal at the end (after step 2)',
      '`pass` is still legal at the end (after step 2)',
      '`standings` is wrong at the end (after step 2)',
      '`c.terrain` is wrong at the end (after step 2)',
    ]);
  });

  it('an impossible setup is rejected at its own key: unknown names, negative numbers, wrong shapes, properties', () => {
    const results = runScenarios(tiny(), [fixture('bad-setup.yaml')]);
    const got = Object.fromEntries(results.map((r) => [r.scenario, r.failures.map((f) => `${f.at.line}:${f.at.column} ${f.message}${f.hint ? ` (${f.hint})` : ''}`)]));
    expect(got).toEqual({
      'Unknown entity': ['7:5 setup: this pack has nothing called `d` (name a player (p1, p2, …), `game`, or an entity id of the pack)'],
      'Unknown field': ['13:5 setup: a space has no field `ownr` (did you mean `owner`?)'],
      'Negative number': ['19:16 setup: `p1.points` (a number): -2 is negative, which no game state can hold (set a number of 0 or more)'],
      'Value of the wrong shape': ['25:14 setup: `a.owner` (a player?): there is no p3 in a 2-player game (the players are p1, p2)', '26:16 setup: `p2.points` (a number): lots should be a number'],
      'A property is not state': ['32:5 setup: `terrain` is a property of the space `a`, fixed by the pack; a scenario sets only state fields (the state fields of space are: owner)'],
    });
    expect(results.every((r) => r.steps === 0)).toBe(true);
  });

  it('shape errors from the JSON Schema point into the YAML', () => {
    const r = run('bad-shape.yaml');
    expect(r.failures.map((f) => `${f.at.line}:${f.at.column} ${f.message}${f.hint ? ` (${f.hint})` : ''}`)).toEqual([
      '1:3 the scenario needs a `players` entry',
      '7:9 `promt` is not a check (did you mean `prompt`?)',
      "9:7 step 2 names 2 players; a step is one player's choice (write each choice as its own step: `- p1: claim a`)",
      '11:7 `expected` is not part of a step (did you mean `expect`?)',
    ]);
  });

  it('malformed YAML is one failed result for the file, at the error', () => {
    const r = run('malformed.yaml');
    expect(r.scenario).toBe(`${fixtures}/malformed.yaml`);
    expect(r.failures.map((f) => [f.at.line, f.at.column])).toEqual([[6, 4]]);
    expect(r.failures[0].message).toMatch(/^this YAML is malformed/);
  });

  it('the formatter prints file:line:col, the caret under the key, expected and found', () => {
    const text = formatResults([run('wrong-value.yaml')]);
    expect(text).toBe(
      [
        `FAIL The wrong owner is reported  (${fixtures}/wrong-value.yaml:2)`,
        `  ${fixtures}/wrong-value.yaml:9:7: \`b.owner\` is wrong after step 1 (\`p1: claim b\`)`,
        '    |',
        '  9 |       b.owner: p2',
        '    |       ^^^^^^^',
        '  expected: p2',
        '  found:    p1',
        '',
        '0 passed, 1 failed',
      ].join('\n'),
    );
  });
});

describe('scenario options', () => {
  const text = (body: string): SourceFile => ({ path: 'inline.yaml', text: body });

  it('a pack-level state check rejects setups beyond what the pack allows, at the key', () => {
    const file = text('scenario: Too many points\nseed: 1\nplayers: 2\nsetup:\n  p2.points: 1\n  p1.points: 99\n');
    const validate = (st: { e: Record<string, Record<string, unknown>> }) =>
      Object.entries(st.e)
        .filter(([, rec]) => typeof rec.points === 'number' && (rec.points as number) > 10)
        .map(([entity]) => ({ entity, field: 'points', message: 'no player can score more than 10' }));
    const [r] = runScenarios(tiny(), [file], { validate });
    expect(r.failures.map((f) => `${f.at.line}:${f.at.column} ${f.message}`)).toEqual(['6:3 setup: the pack does not allow this state: no player can score more than 10']);
  });

  it('`filter` runs only the scenarios whose name contains the text', () => {
    const results = runScenarios(tiny(), [source(`${tinyDir}/scenarios/claiming.yaml`)], { filter: 'WHOLE GAME' });
    expect(results.map((r) => r.scenario)).toEqual(['A whole game ends with standings by points']);
  });

  it('a scenario for another pack is not run', () => {
    const [r] = runScenarios(tiny(), [text('scenario: Elsewhere\npack: other\nseed: 1\nplayers: 2\n')]);
    expect(r.failures.map((f) => `${f.at.line}:${f.at.column} ${f.message}`)).toEqual(['2:7 this scenario is for the pack `other`, but it was run with `tiny`']);
  });

  it('a player count the pack does not allow points at `players`', () => {
    const [r] = runScenarios(tiny(), [text('scenario: Crowded\nseed: 1\nplayers: 7\n')]);
    expect(r.failures.map((f) => `${f.at.line}:${f.at.column} ${f.message}`)).toEqual(['3:10 Tiny race is played by 2 to 3 players, not 7']);
  });

  it('none is `~` or `null`, and the word `none` gets a hint', () => {
    const [ok] = runScenarios(tiny(), [text('scenario: Free\nseed: 1\nplayers: 2\nexpect:\n  a.owner: ~\n  b.owner: null\n')]);
    expect(ok.failures).toEqual([]);
    const [bad] = runScenarios(tiny(), [text('scenario: Free\nseed: 1\nplayers: 2\nexpect:\n  a.owner: none\n')]);
    expect(bad.failures.map((f) => f.hint)).toEqual(['none is written `~` (or `null`) in YAML']);
  });

  it('`log` after a step looks at that step’s entries only', () => {
    const [r] = runScenarios(tiny(), [text('scenario: Log\nseed: 1\nplayers: 2\nsteps:\n  - p1: claim a\n  - p2: pass\n    expect:\n      log: Claim a\n')]);
    expect(r.failures.map((f) => `${f.at.line}:${f.at.column} ${f.message}`)).toEqual(['8:7 no log entry of this step contains "Claim a" after step 2 (`p2: pass`)']);
  });
});

describe('when setup edits are made', () => {
  // A pack whose flow reads a field when it starts: the number of rounds, set by its own setup rule.
  const rounds: SourceFile[] = [
    { path: 'pack.yaml', text: 'id: rounds\nversion: 0.1.0\nname: { en: Rounds }\nlanguages: [en]\nplayers: { min: 1, max: 2 }\n' },
    {
      path: 'game.yaml',
      text: [
        'kinds:',
        '  player:',
        '    state:',
        '      points: number',
        '  game:',
        '    state:',
        '      rounds: number',
        'rules: |',
        '  action score "Score" { me.points += 1 }',
        '  setup { game.rounds = 3 }',
        '  flow {',
        '    for r in 1..game.rounds {',
        '      for p in players { turn p { offer p: score } }',
        '    }',
        '  }',
        '',
      ].join('\n'),
    },
  ];

  it('after the pack’s setup rules and before its flow starts, so the flow sees them', () => {
    const r = compile(rounds);
    expect(r.diagnostics).toEqual([]);
    const file: SourceFile = { path: 'rounds.yaml', text: 'scenario: One round\nseed: 1\nplayers: 1\nsetup:\n  game.rounds: 1\nsteps:\n  - p1: score\nexpect:\n  prompt: over\n  p1.points: 1\n' };
    const [one] = runScenarios(r.pack!, [file]);
    expect(one.failures.map((f) => f.message)).toEqual([]);
    const [three] = runScenarios(r.pack!, [{ path: 'three.yaml', text: 'scenario: Three rounds\nseed: 1\nplayers: 1\nsteps:\n  - p1: score\nexpect:\n  prompt: p1\n  game.rounds: 3\n' }]);
    expect(three.failures.map((f) => f.message)).toEqual([]);
  });
});

describe('impossible setups', () => {
  it('a setup no game could reach is rejected by the pack’s invariants, at the scenario’s own line', () => {
    const { pack } = compile(readPackFolder('content/smallworld-wow'));
    const [r] = runScenarios(pack!, [fixture('sw-impossible-box.yaml')]);
    expect(r.passed).toBe(false);
    expect(r.steps).toBe(0);
    const f = r.failures[0];
    expect(f.message).toMatch(/^setup: the pack does not allow this state: no race has more tokens on the board and in hand than the box holds \(rules\/game\.yaml:\d+\)$/);
    expect(f.at.line).toBe(8);
  });
});
