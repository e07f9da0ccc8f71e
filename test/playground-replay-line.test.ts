/**
 * The playground's replay after an edit (playground/src/replay-line.ts) starts from the first choice
 * whose evaluation ran a rule the edit changed (runtime/usage.ts), yet gives the states a replay from
 * the start gives, byte for byte: on the shipped packs, a game of 150 seeded bot choices, then runs
 * of real edits of the packs' files (a number in a rules line, a comment that moves the lines below
 * it, a number outside the rules, an edit undone), each replayed whole and from part of the line,
 * and a step back to an earlier choice on the edited rules.
 */
import { describe, expect, it } from 'vitest';
import { compile, type CompiledPack, type SourceFile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { apply, legalChoices, newGame, type GameState } from '../runtime/index.ts';
import { agent, choicesOfAsked } from '../runtime/agents.ts';
import { interval, ReplayLine } from '../playground/src/replay-line.ts';
import { recordingPack } from '../runtime/usage.ts';
import { picker } from './helpers/seededGame.ts';

const PACKS = ['content/smallworld-wow', 'content/wotlk', 'content/wroth'];
const CHOICES = 150;
const EDITS = 8;

function packOf(dir: string, files: SourceFile[]): CompiledPack | undefined {
  return compile(files, { dependencies: dependenciesOf(dir, files) }).pack;
}

/** A game of random bots, as the playground's bots play it. */
function botGame(pack: CompiledPack, players: number, seed: number, most = CHOICES): string[] {
  let st = newGame(pack, { players, seed });
  while (!st.over && st.choices.length < most) {
    const asked = st.prompt!.player;
    const c = agent('random', seed, asked, pack).choose(st, choicesOfAsked(st), asked);
    st = apply(st, c.id).state!;
  }
  return st.choices.slice();
}

/** The game replayed from its start, as the playground did before it kept a line. */
function fromStart(pack: CompiledPack, players: number, seed: number, choices: string[]): { state: GameState; applied: number } {
  let state = newGame(pack, { players, seed });
  let applied = 0;
  for (const c of choices) {
    const r = apply(state, c);
    if (!r.ok) break;
    state = r.state;
    applied++;
  }
  return { state, applied };
}

type Edit = (files: SourceFile[], pick: (n: number) => number) => SourceFile[] | undefined;

/** A line of `files` picked by `pick` among those `test` accepts, changed by `change`. */
function editLine(files: SourceFile[], pick: (n: number) => number, test: (line: string, inRules: boolean) => boolean, change: (line: string, pick: (n: number) => number) => string[]): SourceFile[] | undefined {
  const at: Array<[number, number]> = [];
  files.forEach((f, i) => {
    if (!f.path.endsWith('.yaml')) return;
    let rulesIndent = -1;
    f.text.split('\n').forEach((line, j) => {
      const indent = line.length - line.trimStart().length;
      if (rulesIndent >= 0 && line.trim() && indent <= rulesIndent) rulesIndent = -1;
      const inRules = rulesIndent >= 0;
      if (/^\s*(?:- )?rules: \|/.test(line)) rulesIndent = indent;
      else if (test(line, inRules)) at.push([i, j]);
    });
  });
  if (!at.length) return undefined;
  const [i, j] = at[pick(at.length)];
  const lines = files[i].text.split('\n');
  lines.splice(j, 1, ...change(lines[j], pick));
  return files.map((f, k) => (k === i ? { ...f, text: lines.join('\n') } : f));
}

const bump = (line: string, pick: (n: number) => number) => {
  const numbers = [...line.matchAll(/\b\d+\b/g)];
  const m = numbers[pick(numbers.length)];
  return [`${line.slice(0, m.index)}${Number(m[0]) + 1}${line.slice(m.index! + m[0].length)}`];
};

const EDITS_BY_NAME: Record<string, Edit> = {
  ruleNumber: (files, pick) => editLine(files, pick, (l, inRules) => inRules && !l.trim().startsWith('#') && /\b\d+\b/.test(l), bump),
  comment: (files, pick) => editLine(files, pick, (l, inRules) => inRules && l.trim() !== '', (l) => [`${/^\s*/.exec(l)![0]}# edited`, l]),
  dataNumber: (files, pick) => editLine(files, pick, (l, inRules) => !inRules && /^\s+\w+: \d+\s*$/.test(l), bump),
};

describe('replay from the first choice an edit could change', () => {
  for (const dir of PACKS) {
    it(`${dir}: the same states as a replay from the start, after each edit and a step back`, () => {
      const files = readPackFolder(dir);
      const pack = packOf(dir, files)!;
      const players = Math.min(pack.players.max, Math.max(pack.players.min, 3));
      const seed = 3;
      const choices = botGame(pack, players, seed);
      expect(choices.length).toBeGreaterThan(40);
      const line = new ReplayLine();
      line.replay(pack, { players, seed, choices });
      const pick = picker(`replay-line ${dir}`);
      const names = Object.keys(EDITS_BY_NAME);
      let edited = files;
      let tried = 0;
      for (let n = 0; tried < EDITS && n < 4 * EDITS; n++) {
        const name = names[n % names.length];
        const next = EDITS_BY_NAME[name](files, pick);
        const p2 = next && packOf(dir, next);
        if (!p2) continue;
        tried++;
        for (const p of [p2, packOf(dir, edited)!]) {
          const want = fromStart(p, players, seed, choices);
          const got = line.replay(p, { players, seed, choices });
          expect(got.applied, name).toBe(want.applied);
          expect(JSON.stringify(got.state), name).toBe(JSON.stringify(want.state));
          expect(JSON.stringify(legalChoices(got.state)), name).toBe(JSON.stringify(legalChoices(want.state)));
          // Back to an earlier choice and on again, on the same rules: states kept from other rules must not leak in.
          const back = Math.floor(choices.length / 3);
          const earlier = line.replay(p, { players, seed, choices: choices.slice(0, back) });
          expect(JSON.stringify(earlier.state), name).toBe(JSON.stringify(fromStart(p, players, seed, choices.slice(0, back)).state));
          const again = line.replay(p, { players, seed, choices });
          expect(JSON.stringify(again.state), name).toBe(JSON.stringify(want.state));
        }
        edited = next;
      }
      expect(tried).toBe(EDITS);
    });
  }

  it('an edit of a rule used late in the game keeps the choices before it; a change of the data replays all', () => {
    const dir = 'content/smallworld-wow';
    const files = readPackFolder(dir);
    const pack = packOf(dir, files)!;
    const choices = botGame(pack, 3, 3);
    const line = new ReplayLine();
    line.replay(pack, { players: 3, seed: 3, choices });
    const edit = (path: string, from: string, to: string) => packOf(dir, files.map((f) => (f.path === path ? { ...f, text: f.text.replace(from, to) } : f)))!;
    // The Beast Masters' beasts back in hand when their region falls, first at the power's first loss, late in the game: the choices before it are kept.
    const beasts = edit('powers/beastMasters.yaml', 'holder.hand += r.beasts - 1', 'holder.hand += r.beasts - 2');
    const r = line.replay(beasts, { players: 3, seed: 3, choices });
    expect(r.kept).toBeGreaterThan(choices.length / 2);
    expect(r.kept).toBeLessThan(choices.length);
    expect(JSON.stringify(r.state)).toBe(JSON.stringify(fromStart(beasts, 3, 3, choices).state));
    // The same rules again: nothing is replayed.
    expect(line.replay(beasts, { players: 3, seed: 3, choices }).kept).toBe(choices.length);
    // The Worgen's human form, taken from the Worgen's first turn: the game is replayed from its start.
    const worgen = edit('races/worgen.yaml', 'holder.coins += 2', 'holder.coins += 3');
    const w = line.replay(worgen, { players: 3, seed: 3, choices });
    expect(w.kept).toBeLessThan(8);
    expect(JSON.stringify(w.state)).toBe(JSON.stringify(fromStart(worgen, 3, 3, choices).state));
    // A race's number of tokens is data, read wherever a rule reads it: the game is replayed whole.
    const tokens = edit('races/worgen.yaml', 'tokens: 5', 'tokens: 6');
    const whole = line.replay(tokens, { players: 3, seed: 3, choices });
    expect(whole.kept).toBe(0);
    expect(JSON.stringify(whole.state)).toBe(JSON.stringify(fromStart(tokens, 3, 3, choices).state));
  });

  it('an edit of the bots\' preference keeps the whole game: no choice applied reads it', () => {
    const dir = 'content/wotlk';
    const files = readPackFolder(dir);
    const pack = packOf(dir, files)!;
    const choices = botGame(pack, 2, 3);
    expect(choices.length).toBeGreaterThan(30);
    const line = new ReplayLine();
    line.replay(pack, { players: 2, seed: 3, choices });
    const edit = (from: string, to: string) => {
      const text = files.find((f) => f.path === 'rules/game.yaml')!.text;
      expect(text).toContain(from);
      return packOf(dir, files.map((f) => (f.path === 'rules/game.yaml' ? { ...f, text: text.replace(from, to) } : f)))!;
    };
    // An action's worth to a bot, and a prompt's: the game's states are those of the last replay.
    for (const preferred of [edit('play: "30"', 'play: "31"'), edit('questSet: if it == randomQuests then 1 else 0', 'questSet: if it == randomQuests then 0 else 1')]) {
      const r = line.replay(preferred, { players: 2, seed: 3, choices });
      expect(r.kept).toBe(choices.length);
      expect(r.applied).toBe(choices.length);
      expect(JSON.stringify(r.state)).toBe(JSON.stringify(fromStart(preferred, 2, 3, choices).state));
    }
  });

  it('a long game played move by move keeps a bounded number of states, and steps back from them', () => {
    const dir = 'content/smallworld-wow';
    const pack = packOf(dir, readPackFolder(dir))!;
    const choices = botGame(pack, 5, 4, 1000);
    // The shipped packs' games are too short for the playground's bound: a line of 4 states at most, so that the interval doubles three times.
    const most = 4;
    expect(interval(choices.length, most)).toBe(64);
    const line = new ReplayLine(most);
    for (let n = 0; n <= choices.length; n++) {
      const r = line.replay(pack, { players: 5, seed: 4, choices: choices.slice(0, n) });
      expect(r.kept).toBe(Math.max(0, n - 1));
      const kept = line.statesKept();
      expect(kept.length).toBeLessThanOrEqual(most + 1);
      expect(kept.at(-1)).toBe(n);
      for (let i = 1; i < kept.length; i++) expect(kept[i] - kept[i - 1]).toBeLessThanOrEqual(interval(n, most));
    }
    expect(JSON.stringify(line.replay(pack, { players: 5, seed: 4, choices }).state)).toBe(JSON.stringify(fromStart(pack, 5, 4, choices).state));
    // A step back goes on from the state kept nearest before it, at most one interval away.
    for (const back of [Math.floor(choices.length / 3), choices.length - 5]) {
      const r = line.replay(pack, { players: 5, seed: 4, choices: choices.slice(0, back) });
      expect(back - r.kept).toBeGreaterThanOrEqual(0);
      expect(back - r.kept).toBeLessThan(interval(choices.length, most));
      expect(JSON.stringify(r.state)).toBe(JSON.stringify(fromStart(pack, 5, 4, choices.slice(0, back)).state));
      line.replay(pack, { players: 5, seed: 4, choices });
    }
  });

  it('a unit noted, then forgotten by a step back, is noted again when it runs again', () => {
    // A unit's recording wrapper gives way to the linked handler once it is noted (runtime/usage.ts):
    // after a step back the line must note again what the choices after it run, as a first game would.
    const dir = 'content/smallworld-wow';
    const files = readPackFolder(dir);
    const pack = packOf(dir, files)!;
    const choices = botGame(pack, 3, 3);
    const line = new ReplayLine();
    line.replay(pack, { players: 3, seed: 3, choices });
    line.replay(pack, { players: 3, seed: 3, choices: choices.slice(0, 9) });
    line.replay(pack, { players: 3, seed: 3, choices });
    const same = packOf(dir, files)!;
    new ReplayLine().replay(same, { players: 3, seed: 3, choices });
    const first = [...recordingPack(pack).use.first];
    expect(first.filter((f) => f > 9).length).toBeGreaterThan(0);
    expect(first).toEqual([...recordingPack(same).use.first]);
  });
});
