/**
 * The bots of `runtime/agents/` on real packs: names read in one place, the tree search's picks
 * as deterministic as the game, better than random on a small game, cooperating in team mode,
 * cutting its playouts by a pack's `scoring: estimate`, and never looking at what its player cannot see.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { compile } from '../compiler/index.ts';
import type { SourceFile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { agent, AgentKindError, agentSpecFor, choicesOfAsked, mctsAgent, parseAgentKind, playByAgents, type AgentKind } from '../runtime/agents/index.ts';
import { dealer } from '../runtime/agents/determinise.ts';
import { estimates, preferences } from '../runtime/estimate.ts';
import { cloneState, writableRecord } from '../runtime/clone.ts';
import { apply, attach, newGame, standings, viewFor, type CompiledPack, type GameState } from '../runtime/index.ts';
import { rulebook } from './helpers/cli.ts';

const packs = join(import.meta.dirname, 'packs');
const compiled = (files: SourceFile[]): CompiledPack => {
  const r = compile(files);
  if (!r.pack) throw new Error(r.diagnostics.map((d) => `${d.file}:${d.line} ${d.message}`).join('\n'));
  return r.pack;
};
const tictactoe = compiled(readPackFolder(join(packs, 'tictactoe')));

/** The state after these choices of a new game. */
function after(pack: CompiledPack, players: number, seed: number, choices: string[]): GameState {
  let st = newGame(pack, { players, seed });
  for (const c of choices) {
    const r = apply(st, c);
    if (!r.ok) throw new Error(r.reason);
    st = r.state;
  }
  return st;
}

const mcts = (iterations: number, extra: Partial<Parameters<typeof mctsAgent>[3]> = {}) => ({ iterations, team: false, reuse: false, depth: 30, ...extra });

describe('bot names', () => {
  it('reads random, greedy, prefer and mcts with its options, in one place', () => {
    expect(parseAgentKind('random')).toEqual({ kind: 'random' });
    expect(parseAgentKind('greedy')).toEqual({ kind: 'greedy' });
    expect(parseAgentKind('mcts:200')).toEqual({ kind: 'mcts', iterations: 200, team: false, reuse: false, depth: 30 });
    expect(parseAgentKind('mcts:50:team:depth=12:ms=900')).toEqual({ kind: 'mcts', iterations: 50, team: true, reuse: false, depth: 12, ms: 900 });
    // depth=0 values the state each new node reaches by the estimate, with no playout at all.
    expect(parseAgentKind('mcts:40:team:depth=0')).toEqual({ kind: 'mcts', iterations: 40, team: true, reuse: false, depth: 0 });
    expect(parseAgentKind('mcts:40:team:depth=0:horizon=turn')).toEqual({ kind: 'mcts', iterations: 40, team: true, reuse: false, depth: 0, horizon: 'turn' });
    expect(parseAgentKind('mcts:40:horizon=learned')).toEqual({ kind: 'mcts', iterations: 40, team: false, reuse: false, depth: 30, horizon: 'learned' });
    expect(parseAgentKind('mcts:40:team:depth=4:policy=greedy')).toEqual({ kind: 'mcts', iterations: 40, team: true, reuse: false, depth: 4, policy: 'greedy' });
    expect(parseAgentKind('prefer')).toEqual({ kind: 'prefer' });
    expect(parseAgentKind('mcts:20:team:depth=0:prune=3:policy=prefer')).toEqual({ kind: 'mcts', iterations: 20, team: true, reuse: false, depth: 0, prune: 3, policy: 'prefer' });
    expect(parseAgentKind('mcts:8:team:policy=prefer:noise=0:value=end:prior=10:close=0')).toEqual({ kind: 'mcts', iterations: 8, team: true, reuse: false, depth: 30, policy: 'prefer', noise: 0, value: 'end', prior: 10, close: 0 });
  });

  it('refuses a bad name with the forms there are', () => {
    for (const [name, why] of [
      ['mcst:100', /unknown name/],
      ['mcts', /iterations must be a whole number/],
      ['mcts:0', /from 1 to 1,000,000/],
      ['mcts:1e3', /iterations must be a whole number/],
      ['mcts:100:teams', /`teams` is not an option of mcts/],
      ['mcts:100:tries=3', /`tries=3` is not an option of mcts/],
      ['mcts:100:team=1', /`team=1` is not an option of mcts/],
      ['mcts:100:depth=x', /`depth=x`: the value of `depth` must be a whole number of choices/],
      ['mcts:100:ms=0', /`ms=0`: the value of `ms` must be a whole number of milliseconds from 1/],
      ['mcts:100:horizon=round', /`horizon=round`: the value of `horizon` must be `turn` or `learned`/],
      ['mcts:100:policy=best', /`policy=best`: the value of `policy` must be `greedy` or `prefer`/],
      ['mcts:100:prune=0', /`prune=0`: the value of `prune` must be a whole number of choices from 1/],
      ['mcts:100:prior=0', /`prior=0`: the value of `prior` must be a whole number/],
      ['mcts:100:prior=0.5', /`prior=0.5`: the value of `prior` must be a whole number of the preference's points from 1/],
      ['mcts:100:value=score', /`value=score`: the value of `value` must be `estimate` or `end`/],
      ['mcts:100:value=end=1', /`value=end=1`: the value of `value` must be/],
      ['mcts:100:close=-1', /`close=-1`: the value of `close` must be a whole number/],
      ['mcts:100:noise=101', /`noise=101`: the value of `noise` must be a whole percentage from 0 to 100/],
      ['mcts:100:value=end:horizon=turn', /`value=end` values none by it; drop one of them/],
      ['mcts:100:depth=10:value=end', /`depth=10` cuts a playout for the estimate to value, and `value=end` plays every playout to the end; drop `depth=`/],
      ['mcts:100:noise=5', /without `policy=` every choice of a playout is; add `policy=greedy` or `policy=prefer`, or drop `noise=`/],
    ] as const) {
      expect(() => parseAgentKind(name), name).toThrow(AgentKindError);
      expect(() => parseAgentKind(name), name).toThrow(why);
      expect(() => parseAgentKind(name), name).toThrow(/choose `random`, `greedy`, `prefer` or `mcts:<iterations>`/);
    }
  });

  it("takes `depth=0` with `value=end` (the bench names every search with a depth), and `value=end` alone at the default depth", () => {
    expect(parseAgentKind('mcts:8:team:depth=0:policy=prefer:value=end:prior=10:close=2')).toMatchObject({ depth: 0, value: 'end', prior: 10, close: 2 });
    expect(parseAgentKind('mcts:8:value=end')).toMatchObject({ depth: 30, value: 'end' });
  });

  it("refuses an option that reads the pack's preference for a pack that declares none, naming the options and the pack", () => {
    expect(tictactoe.rules.prefer).toBeUndefined();
    for (const [name, named] of [
      ['mcts:10:prior=2', /`prior=` reads the pack's `scoring: prefer`, which it does not declare; drop it$/],
      ['mcts:10:close=1', /`close=` reads/],
      ['mcts:10:prune=2', /`prune=` reads/],
      ['mcts:10:policy=prefer:prior=1', /`prior=`, `policy=prefer` read the pack's `scoring: prefer`, which it does not declare; drop them$/],
    ] as const) {
      expect(() => agent(name, 1, 'p1', tictactoe), name).toThrow(AgentKindError);
      expect(() => agent(name, 1, 'p1', tictactoe), name).toThrow(new RegExp(`^\`${name}\` is not a bot for ${tictactoe.name.en}: `));
      expect(() => agent(name, 1, 'p1', tictactoe), name).toThrow(named);
    }
    const vault = compiled(readPackFolder(join(packs, 'vault')));
    expect(agent('mcts:10:policy=prefer:prior=1:close=1:prune=2', 1, 'p1', vault).kind).toBe('mcts:10:policy=prefer:prior=1:close=1:prune=2');
  });

  it("refuses a bot that reads what the pack does not declare — `prefer` without a preference, `policy=greedy` or `horizon=` without an estimate — saying what to write instead", () => {
    const vault = compiled(readPackFolder(join(packs, 'vault')));
    const climb = compiled(readPackFolder(join(packs, 'climb')));
    expect([tictactoe.rules.prefer, tictactoe.rules.estimate, vault.rules.estimate]).toEqual([undefined, undefined, undefined]);
    const refusal = (seat: () => unknown): unknown => {
      try {
        seat();
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const random = "it plays the pack's `scoring: prefer`, which it does not declare, so it would pick at random; write `random`, or declare `scoring: prefer` in the pack (docs/language.md)";
    const greedy = "`policy=greedy` picks a playout's choices by the pack's `scoring: estimate`, which it does not declare, so its playouts would be random; drop it";
    const toEnd = 'values a leaf the pack\'s `scoring: estimate` values as at its turn\'s end, and the pack declares none: every playout goes on to the game\'s end; drop it';
    for (const [pack, name, why] of [
      [tictactoe, 'prefer', random],
      [tictactoe, 'mcts:10:depth=4:policy=greedy', greedy],
      [vault, 'mcts:10:policy=greedy:noise=5', `${greedy}, or write \`policy=prefer\` to play them by the pack's preference`],
      [tictactoe, 'mcts:10:horizon=learned', `\`horizon=learned\` ${toEnd}`],
      [vault, 'mcts:10:depth=0:horizon=turn', `\`horizon=turn\` ${toEnd}`],
    ] as const) {
      const message = `\`${name}\` is not a bot for ${pack.name.en}: ${why}`;
      for (const seat of [() => agentSpecFor(name, pack), () => agent(name, 1, 'p1', pack), () => playByAgents(pack, { players: pack.players.min, seed: 1, agents: name, maxSteps: 10 })]) {
        const e = refusal(seat);
        expect(e, name).toBeInstanceOf(AgentKindError);
        expect((e as Error).message).toBe(message);
      }
      // The name alone is a bot: what it lacks is the pack's.
      expect(() => parseAgentKind(name)).not.toThrow();
    }
    expect(agent('prefer', 1, 'p1', vault).kind).toBe('prefer');
    expect(agent('mcts:10:depth=3:policy=greedy:horizon=turn', 1, 'p1', climb).kind).toBe('mcts:10:depth=3:policy=greedy:horizon=turn');
    expect(agentSpecFor('mcts:10:horizon=learned', climb)).toMatchObject({ kind: 'mcts', horizon: 'learned' });
  });

  it('names every lack of a bot at once, and its reason apart from what to write instead', () => {
    const vault = compiled(readPackFolder(join(packs, 'vault')));
    const refusal = (name: string, pack: CompiledPack): AgentKindError => {
      try {
        agentSpecFor(name, pack);
      } catch (e) {
        expect(e, name).toBeInstanceOf(AgentKindError);
        return e as AgentKindError;
      }
      throw new Error(`${name} was seated`);
    };
    const preference = "`prior=` reads the pack's `scoring: prefer`, which it does not declare";
    const greedy = "`policy=greedy` picks a playout's choices by the pack's `scoring: estimate`, which it does not declare, so its playouts would be random";
    const horizon = "`horizon=turn` values a leaf the pack's `scoring: estimate` values as at its turn's end, and the pack declares none: every playout goes on to the game's end";
    const all = refusal('mcts:5:prior=1:policy=greedy:horizon=turn', tictactoe);
    const head = `\`mcts:5:prior=1:policy=greedy:horizon=turn\` is not a bot for ${tictactoe.name.en}: `;
    expect(all.message).toBe(`${head}${preference}; drop it; also, ${greedy}; drop it; also, ${horizon}; drop it`);
    expect(all.reason).toBe(`${head}${preference}; also, ${greedy}; also, ${horizon}`);
    // Each lack alone is named as before; the preference a pack declares takes one lack away.
    expect(refusal('mcts:5:prior=1', tictactoe).message).toBe(`\`mcts:5:prior=1\` is not a bot for ${tictactoe.name.en}: ${preference}; drop it`);
    const one = refusal('mcts:5:prior=1:policy=greedy', vault);
    expect(one.message).toBe(`\`mcts:5:prior=1:policy=greedy\` is not a bot for ${vault.name.en}: ${greedy}; drop it, or write \`policy=prefer\` to play them by the pack's preference`);
    expect(one.reason).toBe(`\`mcts:5:prior=1:policy=greedy\` is not a bot for ${vault.name.en}: ${greedy}`);
    const bot = refusal('prefer', tictactoe);
    expect(bot.reason).toBe(`\`prefer\` is not a bot for ${tictactoe.name.en}: it plays the pack's \`scoring: prefer\`, which it does not declare, so it would pick at random`);
    expect(bot.message).toBe(`${bot.reason}; write \`random\`, or declare \`scoring: prefer\` in the pack (docs/language.md)`);
    // A name that is no bot at all: the reason is the whole message.
    const bad = (() => {
      try {
        parseAgentKind('mcts:lots');
      } catch (e) {
        return e as AgentKindError;
      }
    })()!;
    expect(bad.reason).toBe(bad.message);
  });

  it('a command line with a bad bot is a usage error (exit 2) that names it', async () => {
    const { code, err } = await rulebook(['play', join(packs, 'tictactoe'), '--bots', 'mcts:lots']);
    expect(code).toBe(2);
    expect(err).toContain('`mcts:lots` is not a bot');
    // Refused once the pack is known: the pack has no preference for `prior=` to read.
    const unread = await rulebook(['play', join(packs, 'tictactoe'), '--bots', 'mcts:10:prior=1']);
    expect(unread.code).toBe(2);
    expect(unread.err).toBe("rulebook: `mcts:10:prior=1` is not a bot for Tic-tac-toe: `prior=` reads the pack's `scoring: prefer`, which it does not declare; drop it\n");
    // Refused before the game: nothing of it is printed.
    const random = await rulebook(['play', join(packs, 'tictactoe'), '--players', '2', '--bots', 'random', 'prefer']);
    expect(random).toEqual({ code: 2, out: '', err: "rulebook: `prefer` is not a bot for Tic-tac-toe: it plays the pack's `scoring: prefer`, which it does not declare, so it would pick at random; write `random`, or declare `scoring: prefer` in the pack (docs/language.md)\n" });
    // A study is refused before its first game, whatever plays it (threads, shards, a queue).
    for (const where of [[], ['--workers', '2'], ['--shard', '1/2'], ['--queue', 'redis://127.0.0.1:1', '--packs', join(packs)]]) {
      const study = await rulebook(['simulate', join(packs, 'vault'), '--games', '4', '--bots', 'mcts:10:policy=greedy', ...where]);
      expect(study, where.join(' ')).toEqual({ code: 2, out: '', err: "rulebook: `mcts:10:policy=greedy` is not a bot for Vault: `policy=greedy` picks a playout's choices by the pack's `scoring: estimate`, which it does not declare, so its playouts would be random; drop it, or write `policy=prefer` to play them by the pack's preference\n" });
    }
  });
});

describe('tree search', () => {
  it('picks the same for the same seed, player and state, and plays the same game again', () => {
    const st = after(tictactoe, 2, 4, ['mark a1', 'mark b2']);
    const legal = choicesOfAsked(st);
    const picks = [1, 2].map(() => mctsAgent(tictactoe, 4, 'p1', mcts(60)).choose(st, legal, 'p1').id);
    expect(picks[0]).toBe(picks[1]);
    const game = () => playByAgents(tictactoe, { players: 2, seed: 8, agents: ['mcts:40', 'mcts:40'], maxSteps: 20 }).state.choices;
    expect(game()).toEqual(game());
  });

  it('reusing its tree, a bot still plays the same game again from the same start', () => {
    const game = () => playByAgents(tictactoe, { players: 2, seed: 6, agents: ['mcts:40:reuse', 'random'], maxSteps: 20 }).state.choices;
    expect(game()).toEqual(game());
  });

  it('reusing its tree, a bot plays in playout mode the game it plays recorded, and the record is kept', () => {
    // Such a search finds its kept subtree by the choices recorded, which playout mode leaves blank.
    const o = { players: 2, seed: 6, agents: ['mcts:40:reuse', 'random'] as AgentKind[], maxSteps: 20 };
    const recorded = playByAgents(tictactoe, o).state.choices;
    expect(recorded.every((c) => c !== '')).toBe(true);
    expect(playByAgents(tictactoe, { ...o, playout: true }).state.choices).toEqual(recorded);
  });

  it('a game taken over half way is played on as it would have been', () => {
    const o = { players: 2, seed: 3, agents: ['mcts:40', 'random'] as AgentKind[], maxSteps: 20 };
    const whole = playByAgents(tictactoe, o);
    const half = playByAgents(tictactoe, { ...o, maxSteps: 3 });
    expect(playByAgents(tictactoe, { ...o, start: half.state }).state.choices).toEqual(whole.state.choices);
  });

  it('takes a win in one, and blocks a loss in one', () => {
    // p1 has a1 and b1 (c1 wins the top row); p2 has a2 and b2 (c2 would win the middle row).
    const win = after(tictactoe, 2, 1, ['mark a1', 'mark a2', 'mark b1', 'mark b2']);
    expect(mctsAgent(tictactoe, 1, 'p1', mcts(200)).choose(win, choicesOfAsked(win), 'p1').id).toBe('mark c1');
    const block = after(tictactoe, 2, 1, ['mark a1', 'mark a2', 'mark b1']);
    expect(mctsAgent(tictactoe, 1, 'p2', mcts(200)).choose(block, choicesOfAsked(block), 'p2').id).toBe('mark c1');
  });

  it('never loses tic-tac-toe to random play, in either seat', () => {
    const results: string[] = [];
    for (let seed = 1; seed <= 8; seed++) {
      const seat = seed % 2 ? 'p1' : 'p2';
      const agents: AgentKind[] = seat === 'p1' ? ['mcts:200', 'random'] : ['random', 'mcts:200'];
      const rows = standings(playByAgents(tictactoe, { players: 2, seed, agents, maxSteps: 20 }).state);
      results.push(rows[0].score === rows[1].score ? 'draw' : rows[0].player === seat ? 'win' : 'loss');
    }
    expect(results).not.toContain('loss');
    expect(results.filter((r) => r === 'win').length).toBeGreaterThanOrEqual(6);
  });

  it('in team mode the table plays for one pot: setting up a teammate beats scoring alone', () => {
    const relay = compiled(readPackFolder(join(packs, 'relay')));
    const pot = (kind: AgentKind, seed: number) => standings(playByAgents(relay, { players: 2, seed, agents: kind, maxSteps: 50 }).state)[0].score;
    const team = [1, 2, 3, 4].map((seed) => pot('mcts:300:team', seed));
    // The best is 12 (set up, strike, three times); a bot for itself sees the same score for
    // everyone, no lead to gain and no reason to set up, and works alone: 6.
    for (const p of team) expect(p).toBeGreaterThanOrEqual(10);
    expect(team.filter((p) => p === 12).length).toBeGreaterThanOrEqual(2);
    expect(pot('mcts:300', 1)).toBe(6);
  });

  it("cuts its playouts by the pack's estimate when one is declared, and plays to the end without", () => {
    const files = readPackFolder(join(packs, 'patience'));
    const withEstimate = compiled(files);
    const without = compiled(files.map((f) => (f.path === 'game.yaml' ? { ...f, text: f.text.replace(/^ {2}estimate: .*\n/m, '') } : f)));
    expect(without.rules.estimate).toBeUndefined();
    const first = (pack: CompiledPack) => {
      const st = newGame(pack, { players: 1, seed: 1 });
      return mctsAgent(pack, 1, 'p1', mcts(30, { depth: 10 })).choose(st, choicesOfAsked(st), 'p1').id;
    };
    expect(first(withEstimate)).toBe('late');
    expect(first(without)).toBe('early');
    expect(estimates(withEstimate, after(withEstimate, 1, 1, ['late']))).toEqual([5]);
    expect(estimates(without, newGame(without, { players: 1, seed: 1 }))).toBeUndefined();
  });

  it('values a finished game by the estimate too, so every leaf of a search has one unit', () => {
    // Deep enough to reach the end: by the score `early` would be worth 1 and `late` 0; by the
    // estimate, which the search plays for, `late` is worth 5 there as anywhere.
    const pack = compiled(readPackFolder(join(packs, 'patience')));
    const st = newGame(pack, { players: 1, seed: 1 });
    expect(mctsAgent(pack, 1, 'p1', mcts(30, { depth: 200 })).choose(st, choicesOfAsked(st), 'p1').id).toBe('late');
  });

  it("with horizon=turn values a leaf after its turn's end: the gold a thief takes then is not counted", () => {
    // The thief takes the grabbed gold when the turn ends, three choices after the grab: eight
    // iterations valuing the state each new node reaches do not get that far, and grab.
    const thief = compiled(readPackFolder(join(packs, 'thief')));
    const st = newGame(thief, { players: 1, seed: 1 });
    const first = (horizon?: 'turn') => mctsAgent(thief, 1, 'p1', mcts(8, { depth: 0, horizon })).choose(st, choicesOfAsked(st), 'p1').id;
    expect(first()).toBe('grab');
    expect(first('turn')).toBe('bank');
    const banked = (kind: AgentKind) => standings(playByAgents(thief, { players: 1, seed: 2, agents: kind, maxSteps: 50 }).state)[0].score;
    expect(banked('mcts:8:depth=0')).toBe(0);
    expect(banked('mcts:8:depth=0:horizon=turn')).toBe(3);
  });

  it("with horizon=learned moves every leaf to the end of the decision's turn by the change turns' ends made: no stalling before one", () => {
    // Waiting costs 2 at once, the turn's end 8 whenever it comes: a search valuing the state
    // before the end above the one after it waits all its turns long; counting the end's mean cost
    // either way, it ends them.
    const stall = compiled(readPackFolder(join(packs, 'stall')));
    const st = newGame(stall, { players: 1, seed: 1 });
    const first = (horizon?: 'learned') => mctsAgent(stall, 1, 'p1', mcts(60, { depth: 0, horizon })).choose(st, choicesOfAsked(st), 'p1').id;
    expect(first()).toBe('wait');
    expect(first('learned')).toBe('stop');
    const waits = (kind: AgentKind) => playByAgents(stall, { players: 1, seed: 2, agents: kind, maxSteps: 400 }).state.choices.filter((c) => c === 'wait').length;
    expect(waits('mcts:20:depth=0')).toBeGreaterThan(200);
    expect(waits('mcts:20:depth=0:horizon=learned')).toBeLessThan(30);
  });

  it("with policy=greedy its playouts take the estimate's best choice: a climb that random playouts value below a safe point pays", () => {
    // Three times one hold of three goes up and the others drop the climber: a random playout
    // reaches the top once in 27, a greedy one (a tenth of its choices at random) nearly always.
    const climb = compiled(readPackFolder(join(packs, 'climb')));
    const st = newGame(climb, { players: 1, seed: 1 });
    const seeds = [1, 2, 3, 4, 5, 6];
    const first = (seed: number, policy?: 'greedy') => mctsAgent(climb, seed, 'p1', mcts(10, { depth: 3, policy })).choose(st, choicesOfAsked(st), 'p1').id;
    expect(seeds.map((seed) => first(seed))).toEqual(seeds.map(() => 'safe'));
    expect(seeds.filter((seed) => first(seed, 'greedy') === 'climb').length).toBeGreaterThanOrEqual(4);
    const score = (kind: AgentKind, seed: number) => standings(playByAgents(climb, { players: 1, seed, agents: kind, maxSteps: 20 }).state)[0].score;
    expect(seeds.map((seed) => score('mcts:10:depth=3', seed))).toEqual(seeds.map(() => 2));
    expect(seeds.map((seed) => score('mcts:10:depth=3:policy=greedy', seed))).toEqual(seeds.map(() => 6));
  });

  it("plays the pack's `scoring: prefer` as `prefer`, and a search's playouts (`policy=prefer`) or tree (`prune=`) by it", () => {
    // Four rooms to the vault, two dead ends at every junction, six moves: a random walker never
    // gets there; the preference heads for it and takes the dearest gem.
    const vault = compiled(readPackFolder(join(packs, 'vault')));
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8];
    const score = (kind: AgentKind, seed: number) => standings(playByAgents(vault, { players: 1, seed, agents: kind, maxSteps: 40 }).state)[0].score;
    expect(seeds.map((seed) => score('random', seed))).toEqual(seeds.map(() => 0));
    expect(seeds.map((seed) => score('prefer', seed))).toEqual(seeds.map(() => 5));
    expect(seeds.filter((seed) => score('mcts:10', seed) > 0).length).toBeLessThanOrEqual(1);
    expect(seeds.filter((seed) => score('mcts:10:policy=prefer', seed) === 5).length).toBeGreaterThanOrEqual(4);
    // With no noise a playout is the preference's own walk: every one reaches the vault.
    expect(seeds.map((seed) => score('mcts:10:policy=prefer:noise=0', seed))).toEqual(seeds.map(() => 5));
    expect(seeds.map((seed) => score('mcts:10:prune=1', seed))).toEqual(seeds.map(() => 5));
  });

  it('led by the preference (`prior=`), a search of a few iterations plays as it does; valued at the end (`value=end`), it leaves it where the outcome disagrees', () => {
    const vault = compiled(readPackFolder(join(packs, 'vault')));
    const lure = compiled(readPackFolder(join(packs, 'lure')));
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8];
    const score = (pack: CompiledPack, kind: AgentKind, seed: number) => standings(playByAgents(pack, { players: 1, seed, agents: kind, maxSteps: 40 }).state)[0].score;
    // Random playouts seldom reach the vault: every choice's value is the same 0, and a search by
    // UCT walks at random; with the prior it walks where the preference does.
    expect(seeds.filter((seed) => score(vault, 'mcts:3', seed) > 0).length).toBeLessThanOrEqual(1);
    expect(seeds.map((seed) => score(vault, 'mcts:3:prior=1', seed))).toEqual(seeds.map(() => 5));
    // The lure's preference takes the cursed ruby (-5). Its estimate sees no gem, so a search cut
    // there finds them all alike and follows the prior; played to the end, the ruby is seen to cost.
    expect(seeds.map((seed) => score(lure, 'prefer', seed))).toEqual(seeds.map(() => -5));
    expect(seeds.map((seed) => score(lure, 'mcts:20:policy=prefer:prior=2:depth=0', seed))).toEqual(seeds.map(() => -5));
    // Played to the end it never takes the ruby: it takes the opal (3), or, on the seeds where its
    // preferred playouts (one choice in ten at random) walked on to the ruby so often that the way
    // to the vault looked worse than a dead end, it spends its moves in the dead ends (0).
    expect(seeds.map((seed) => score(lure, 'mcts:20:policy=prefer:prior=2:value=end', seed))).toEqual([0, 3, 0, 3, 0, 0, 0, 3]);
    const atVault = after(lure, 1, 1, ['move hall', 'move vault']);
    const gems = choicesOfAsked(atVault);
    const pick = (kind: AgentKind) => agent(kind, 1, 'p1', lure).choose(atVault, gems, 'p1').id;
    expect(pick('mcts:20:policy=prefer:prior=2:depth=0')).toBe('choose ruby');
    expect(pick('mcts:20:policy=prefer:prior=2:value=end')).toBe('choose opal');
    // `close=`: the ruby is 2 points above the opal, so at 1 the bot takes it unsearched, at 2 it searches.
    expect(pick('mcts:20:policy=prefer:prior=2:value=end:close=1')).toBe('choose ruby');
    expect(pick('mcts:20:policy=prefer:prior=2:value=end:close=2')).toBe('choose opal');
    // Ties of visits go to the preference, not to the better mean. With `prior=100` the priors are
    // near equal: the first iteration takes the liked ruby (-5), the second the opal (3), and two
    // iterations end one visit each, so the ruby; a third visits the opal again.
    expect(pick('mcts:2:prior=100:value=end')).toBe('choose ruby');
    expect(pick('mcts:3:prior=100:value=end')).toBe('choose opal');
  });

  it("reusing its tree, a bot reads the preference at its decision in the real state, not in the world its kept subtree was searched in", () => {
    // A lure whose every move draws an omen (1 or 2) the gems' preference turns on: the ruby is
    // liked at 1, the glass at 2, by 2 points or more, so `close=1` takes the liked gem unsearched.
    // The subtree kept from the move into the vault read the preference in worlds whose omens were
    // drawn anew; the gem taken must still be the one the real omen makes liked.
    const omens = compiled(
      lureWith([
        ['      points: number\n', '      points: number\n      omen: number\n'],
        ['    game.at = to\n', '    game.at = to\n    game.omen = random(2)\n'],
        ['    move: 0 - distance(to, first(rooms where vault))', '    move: "0"'],
        ['      gem: it.worth', '      gem: if game.omen == 1 then it.worth else 0 - it.worth'],
        ['      none: "-1"', '      none: "-20"'],
      ]),
    );
    const taken = (kind: AgentKind, seed: number) => {
      let liked: string | undefined;
      const g = playByAgents(omens, {
        players: 1,
        seed,
        agents: kind,
        maxSteps: 40,
        observe: (st) => {
          const legal = st.over ? [] : choicesOfAsked(st);
          if (!legal.some((c) => c.id === 'choose ruby')) return;
          const points = preferences(omens, st, legal)!;
          liked = legal[points.indexOf(Math.max(...points))].id;
        },
      });
      return { liked, took: g.state.choices.at(-1) };
    };
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    for (const kind of ['mcts:20:reuse:prior=1:close=1', 'mcts:20:prior=1:close=1'] as AgentKind[]) {
      const games = seeds.map((seed) => taken(kind, seed));
      expect(games.map((g) => g.liked).filter((l) => l === 'choose ruby').length, kind).toBeGreaterThanOrEqual(3);
      expect(games.map((g) => g.liked).filter((l) => l === 'choose glass').length, kind).toBeGreaterThanOrEqual(3);
      expect(games.map((g) => g.took), kind).toEqual(games.map((g) => g.liked));
    }
  });

  it("led by the preference (`prior=`), a search reads it at its decision in the real state, not in the first world it deals", () => {
    // A lure whose gems shine by a hidden field (nobody's to see, so every world deals the shines
    // anew among the gems) and whose preference likes the shiniest: the ruby, in the real state.
    // A few iterations whose leaves are all alike (the estimate sees no gem) follow the prior
    // alone, so the gem taken is the one the prior at the decision likes most: the ruby, as
    // `prefer` takes it, whatever the first world dealt.
    const shiny = compiled(
      lureWith([
        ['      cursed: bool\n', '      cursed: bool\n    state:\n      shine: { type: number, hidden: true }\n'],
        ['    worth: 1\n', '    worth: 1\n    shine: 1\n'],
        ['    worth: 5\n', '    worth: 5\n    shine: 5\n'],
        ['    worth: 3\n', '    worth: 3\n    shine: 3\n'],
        ['      gem: it.worth', '      gem: it.shine'],
      ]),
    );
    expect(shiny.hidden.gem).toEqual(['shine']);
    const atVault = after(shiny, 1, 1, ['move hall', 'move vault']);
    const gems = choicesOfAsked(atVault);
    const liked = (st: GameState) => {
      const points = preferences(shiny, st, gems)!;
      return gems[points.indexOf(Math.max(...points))].id;
    };
    expect(liked(atVault)).toBe('choose ruby');
    expect(agent('prefer', 1, 'p1', shiny).choose(atVault, gems, 'p1').id).toBe('choose ruby');
    // The worlds do not agree with the real state: most like another gem.
    let n = 0;
    const random = () => ((n = (n * 1103515245 + 12345) % 2147483648) / 2147483648);
    const worlds = Array.from({ length: 12 }, () => liked(dealer(shiny, atVault, ['p1'])(random)));
    expect(worlds.filter((w) => w !== 'choose ruby').length).toBeGreaterThanOrEqual(4);
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    for (const kind of ['mcts:1:prior=1:depth=0', 'mcts:4:prior=1:depth=0'] as AgentKind[]) {
      expect(seeds.map((seed) => agent(kind, seed, 'p1', shiny).choose(atVault, gems, 'p1').id), kind).toEqual(seeds.map(() => 'choose ruby'));
    }
    // Reusing its tree: the root kept from the move into the vault (one iteration a decision: no gem
    // searched under it yet) is read anew at the decision, in the real state, not in its first world.
    const took = (kind: AgentKind, seed: number) => playByAgents(shiny, { players: 1, seed, agents: kind, maxSteps: 40 }).state.choices;
    expect(seeds.map((seed) => took('mcts:1:reuse:prior=1:depth=0', seed))).toEqual(seeds.map(() => ['move hall', 'move vault', 'choose ruby']));
  });

  it('a preference reads an action\'s arguments by name, and an option picked in a prompt as `it`, without playing either', () => {
    const vault = compiled(readPackFolder(join(packs, 'vault')));
    const st = newGame(vault, { players: 1, seed: 1 });
    const legal = choicesOfAsked(st);
    const before = JSON.stringify(st);
    // From the gate: the hall is 3 rooms from the vault, the dead ends 5; waiting is -10.
    expect(Object.fromEntries(legal.map((c, i) => [c.id, preferences(vault, st, legal)![i]]))).toEqual({ 'move hall': -3, 'move gate1': -5, 'move gate2': -5, wait: -10 });
    expect(JSON.stringify(st)).toBe(before);
    const there = after(vault, 1, 1, ['move hall', 'move stair', 'move crypt', 'move vault']);
    const gems = choicesOfAsked(there);
    expect(Object.fromEntries(gems.map((c, i) => [c.id, preferences(vault, there, gems)![i]]))).toEqual({ 'choose glass': 1, 'choose ruby': 5, 'choose opal': 3, skip: -1 });
    expect(preferences(tictactoe, st, [])).toBeUndefined();
  });

  it('a preference for no action, for an option of no type or that is not a number is a compile error at its key or value', () => {
    const files = readPackFolder(join(packs, 'vault'));
    const problems = (from: string, to: string) => {
      const changed = files.map((f) => (f.path === 'game.yaml' ? { ...f, text: f.text.replace(from, to) } : f));
      const line = changed.find((f) => f.path === 'game.yaml')!.text.split('\n').findIndex((l) => l.includes(to.trim().split('\n')[0])) + 1;
      return { line, errors: compile(changed).diagnostics.filter((d) => d.severity === 'error').map((d) => ({ code: d.code, line: d.line, message: d.message, hint: d.hint })) };
    };
    const walk = problems('    move: 0', '    mov: 0');
    expect(walk.errors).toEqual([{ code: 'RB0101', line: walk.line, message: 'unknown key `mov` in scoring.prefer', hint: 'did you mean `move`?' }]);
    const jewel = problems('      gem: it.worth', '      jewel: it.worth');
    expect(jewel.errors).toEqual([{ code: 'RB0101', line: jewel.line, message: 'unknown key `jewel` in scoring.prefer.choose', hint: 'a key of `choose` is the type of the option picked (a kind, an enum, `bool` or `number`), or `none`' }]);
    const yes = problems('    wait: "-10"', '    wait: "true"');
    expect(yes.errors.map((e) => [e.code, e.line])).toEqual([['RB0501', yes.line]]);
  });

  it('an estimate that is not a number is a compile error at its place in the YAML', () => {
    const files = readPackFolder(join(packs, 'patience')).map((f) => (f.path === 'game.yaml' ? { ...f, text: f.text.replace(/estimate: .*/, 'estimate: "\'soon\'"') } : f));
    const r = compile(files);
    const d = r.diagnostics.find((x) => x.severity === 'error');
    expect(d).toBeDefined();
    const line = files.find((f) => f.path === 'game.yaml')!.text.split('\n').findIndex((l) => l.includes('estimate:')) + 1;
    expect({ file: d!.file, line: d!.line }).toEqual({ file: 'game.yaml', line });
    expect(d!.code).toMatch(/^RB\d{4}$/);
    expect(d!.column).toBeGreaterThan(1);
  });
});

describe('what a bot may see', () => {
  let compiledSw: CompiledPack | undefined;
  const smallWorld = () => (compiledSw ??= compiled(readPackFolder(join(import.meta.dirname, '..', 'content', 'smallworld-wow'))));

  it('a determinised world looks to its player exactly like the real one, but its hidden parts and its future rolls are dealt anew', () => {
    const sw = smallWorld();
    let changed = 0;
    for (const seed of [1, 2, 3]) {
      const st = playByAgents(sw, { players: 3, seed, agents: 'random', maxSteps: 40 }).state;
      let n = 0;
      const random = () => ((n = (n * 1103515245 + 12345 + seed) % 2147483648) / 2147483648);
      for (let k = 0; k < 5; k++) {
        const world = dealer(sw, st, ['p1'])(random);
        const { rng: realRng, ...realView } = viewFor(st, 'p1');
        const { rng: worldRng, ...worldView } = viewFor(world, 'p1');
        expect(worldView).toEqual(realView);
        expect(worldRng).not.toBe(realRng);
        if (JSON.stringify(world.e) !== JSON.stringify(st.e)) changed++;
      }
      // The real state is left as it was: the world copied what it dealt anew.
      expect(playByAgents(sw, { players: 3, seed, agents: 'random', maxSteps: 40 }).state.e).toEqual(st.e);
    }
    expect(changed).toBeGreaterThan(0);
  });

  it("WotLK's face-down decks are dealt anew for the whole table, its open hands and what the Scourge Rises put back on top are not", () => {
    const pack = compiled(readPackFolder(join(import.meta.dirname, '..', 'content', 'wotlk')));
    const start = after(pack, 2, 4, ['choose normal']);
    const st = playByAgents(pack, { players: 2, seed: 4, agents: 'random', maxSteps: start.choices.length + 30, start }).state;
    expect(st.over).toBe(false);
    let n = 0;
    const random = () => ((n = (n * 1103515245 + 12345) % 2147483648) / 2147483648);
    const sorted = (v: unknown) => [...(v as string[])].sort();
    let reordered = 0;
    for (let k = 0; k < 5; k++) {
      // Team mode: every seat observes, and still the decks are not theirs to see.
      const world = dealer(pack, st, st.players)(random);
      for (const deck of ['heroDeck', 'scourgeDeck']) {
        expect(viewFor(st, 'p1').e.game[deck]).toBeNull();
        expect(sorted(world.e.game[deck])).toEqual(sorted(st.e.game[deck]));
        if (JSON.stringify(world.e.game[deck]) !== JSON.stringify(st.e.game[deck])) reordered++;
      }
      for (const p of st.players) expect(world.e[p].hand).toEqual(st.e[p].hand);
      expect(world.e.game.scourgeReturned).toEqual(st.e.game.scourgeReturned);
      expect(world.e.game.scourgeDiscard).toEqual(st.e.game.scourgeDiscard);
    }
    expect(reordered).toBeGreaterThan(5);
  });

  it("the shipped packs' estimates rank a finished game as its score does, and grade the game before its end", () => {
    const content = join(import.meta.dirname, '..', 'content');
    const sw = smallWorld();
    const swEnd = playByAgents(sw, { players: 2, seed: 3, agents: 'random', maxSteps: 3000 }).state;
    expect(swEnd.over).toBe(true);
    // On the last round no round is left: the estimate is the coins, the score.
    expect(estimates(sw, swEnd)).toEqual(swEnd.players.map((p) => standings(swEnd).find((r) => r.player === p)!.score));
    const swMid = playByAgents(sw, { players: 2, seed: 3, agents: 'random', maxSteps: 30 }).state;
    const coins = standings(swMid).map((r) => r.score);
    expect(estimates(sw, swMid)!.every((v) => v > Math.min(...coins))).toBe(true);

    for (const name of ['wotlk', 'wroth']) {
      const pack = compiled(readPackFolder(join(content, name)));
      // WotLK's difficulty for the table; Wroth's AI faction and its first scenario card.
      const card = pack.byKind.scenario?.[0] ?? '';
      const setup = name === 'wotlk' ? ['choose normal'] : [`choose ${pack.entities[card]?.props.faction}`, `choose ${card}`];
      const start = after(pack, name === 'wotlk' ? 2 : 1, 2, setup);
      const end = playByAgents(pack, { players: start.players.length, seed: 2, agents: 'random', maxSteps: 3000, start }).state;
      expect(end.over, name).toBe(true);
      const won = standings(end)[0].score > 0;
      const final = estimates(pack, end)!;
      // A co-op table shares one estimate; a lost game is 0, a won one WotLK's 10000.
      expect(new Set(final).size, name).toBe(1);
      if (name === 'wotlk') expect(final[0], name).toBe(won ? 10000 : 0);
      const mid = playByAgents(pack, { players: start.players.length, seed: 2, agents: 'random', maxSteps: start.choices.length + 20, start }).state;
      const graded = estimates(pack, mid)![0];
      expect(graded, name).toBeGreaterThan(0);
      expect(graded, name).toBeLessThan(1000);
    }
  });

  it("WotLK's preference quests on a quest space, steps off it to rest one strike from a defeat, and clears a space at 3 ghouls", () => {
    const pack = compiled(readPackFolder(join(import.meta.dirname, '..', 'content', 'wotlk')));
    const start = after(pack, 2, 1, ['choose normal', 'choose firstGame', 'choose jaina', 'choose muradin']);
    const quest = pack.byKind.quest!.find((q) => start.e[q].active)!;
    const questSpace = pack.entities[quest].props.space as string;
    /** The choice `prefer` makes with Jaina on `space` at `health`, every ghoul of the board on `space` (`ghouls`) or none. */
    const pick = (space: string, health: number, ghouls = 0): string => {
      const st = cloneState(start);
      for (const s of pack.byKind.space!) writableRecord(st, s)!.ghouls = s === space ? ghouls : 0;
      Object.assign(writableRecord(st, 'jaina')!, { space, health });
      const played = attach(pack, st);
      return agent('prefer', 1, 'p1', pack).choose(played, choicesOfAsked(played), 'p1').id;
    };
    expect(pick(questSpace, 7)).toBe(`quest ${quest}`);
    const off = pick(questSpace, 2);
    expect(off).toMatch(/^move /);
    expect(pack.byKind.quest!.some((q) => start.e[q].active && pack.entities[q].props.space === off.slice('move '.length))).toBe(false);
    const elsewhere = pack.byKind.space!.find((s) => pack.entities[s].props.color !== null && !pack.byKind.quest!.some((q) => pack.entities[q].props.space === s))!;
    expect(pick(elsewhere, 7, 3)).toBe('fight');
  });

  it("WotLK's estimate weighs a space one ghoul short of an overrun, less with a hero near, shrinks with despair and grows when a quest is done", () => {
    const pack = compiled(readPackFolder(join(import.meta.dirname, '..', 'content', 'wotlk')));
    const start = after(pack, 2, 2, ['choose normal']);
    const mid = playByAgents(pack, { players: 2, seed: 2, agents: 'random', maxSteps: start.choices.length + 12, start }).state;
    expect(mid.over).toBe(false);
    const spaces = pack.byKind.space!;
    const heroAt = new Set(pack.byKind.hero!.map((h) => mid.e[h].space));
    const far = spaces.find((s) => !heroAt.has(s) && pack.entities[s].props.color !== null)!;
    /** `mid` with no ghoul on the board but `ghouls` at `far`, one hero on `heroOn` if given, and `despair`. */
    const variant = (ghouls: number, despair: number, heroOn?: string): number => {
      const st = cloneState(mid);
      for (const s of spaces) writableRecord(st, s)!.ghouls = s === far ? ghouls : 0;
      if (heroOn) writableRecord(st, pack.byKind.hero!.find((h) => mid.e[h].space)!)!.space = heroOn;
      writableRecord(st, 'game')!.despair = despair;
      return estimates(pack, attach(pack, st))![0];
    };
    const clear = variant(0, 1);
    const threatened = variant(3, 1);
    const helped = variant(3, 1, far);
    expect(threatened).toBeLessThan(helped);
    expect(helped).toBeLessThan(clear);
    // The part of the track still free (8 spaces), squared, of all the heroes have: the first
    // spaces of despair cost the most.
    const whole = variant(0, 0);
    expect(clear).toBe(Math.floor((whole * 49) / 64));
    expect(variant(0, 2)).toBe(Math.floor((whole * 36) / 64));
    // Finishing a quest never lowers it: a quest done counts its whole track and more.
    const quest = pack.byKind.quest!.find((q) => mid.e[q].active)!;
    const track = (pack.entities[quest].props.track as unknown[]).length;
    const questAt = (done: boolean): number => {
      const st = cloneState(mid);
      Object.assign(writableRecord(st, quest)!, done ? { active: false, done: true, progress: track } : { progress: track - 1 });
      return estimates(pack, attach(pack, st))![0];
    };
    expect(questAt(true)).toBeGreaterThan(questAt(false));
    // In the middle of an action: a success rolled and not yet spent counts, damage not yet taken
    // costs, so laying a card (the success kept) is not valued as declining (the success spent).
    const midAction = (fields: Record<string, number>): number => {
      const st = cloneState(mid);
      Object.assign(writableRecord(st, 'game')!, fields);
      return estimates(pack, attach(pack, st))![0];
    };
    expect(midAction({ successes: 2 })).toBeGreaterThan(midAction({ successes: 0 }));
    expect(midAction({ pending: 3 })).toBeLessThan(midAction({ pending: 0 }));
    // In the siege a step of Icecrown's track counts three of a quest's.
    const icecrown = pack.byKind.quest!.find((q) => pack.entities[q].props.color === null)!;
    const siegeAt = (q: string, progress: number): number => {
      const st = cloneState(mid);
      writableRecord(st, 'game')!.siege = true;
      Object.assign(writableRecord(st, icecrown)!, { active: true, progress: 0 });
      writableRecord(st, q)!.progress = progress;
      return estimates(pack, attach(pack, st))![0];
    };
    expect(siegeAt(icecrown, 4) - siegeAt(icecrown, 0)).toBeGreaterThan(2.5 * (siegeAt(quest, 4) - siegeAt(quest, 0)));
    // The win stays above anything short of it: every quest done, the heroes unhurt, no despair.
    const best = cloneState(mid);
    for (const q of pack.byKind.quest!) Object.assign(writableRecord(best, q)!, { active: false, done: true, progress: (pack.entities[q].props.track as unknown[]).length });
    for (const h of pack.byKind.hero!) writableRecord(best, h)!.health = pack.entities[h].props.maxHealth as number;
    writableRecord(best, 'game')!.despair = 0;
    expect(estimates(pack, attach(pack, best))![0]).toBeLessThan(10000);
  });

  it('every named bot plays a whole game of a shipped pack through the one loop', () => {
    const sw = smallWorld();
    const g = playByAgents(sw, { players: 2, seed: 5, agents: ['mcts:3:depth=5', 'random'], maxSteps: 400 });
    expect(g.stopped?.kind).not.toBe('stuck');
    expect(agent('mcts:3', 5, 'p1', sw).kind).toBe('mcts:3');
  });

  it('played in place, a game is the same state byte for byte, and the state it started from is left as it was', () => {
    const sw = smallWorld();
    const o = { players: 3, seed: 11, agents: ['greedy', 'random', 'mcts:3:depth=5'] as AgentKind[], maxSteps: 300 };
    const half = playByAgents(sw, { ...o, maxSteps: 40 }).state;
    const before = JSON.stringify(half);
    const copied = playByAgents(sw, { ...o, start: half });
    const inPlace = playByAgents(sw, { ...o, start: half, inPlace: true });
    expect(JSON.stringify(inPlace.state)).toBe(JSON.stringify(copied.state));
    expect(inPlace.stopped).toEqual(copied.stopped);
    expect(JSON.stringify(half)).toBe(before);
    expect(JSON.stringify(playByAgents(sw, { ...o, inPlace: true }).state)).toBe(JSON.stringify(playByAgents(sw, o).state));
  });
});

/** The lure test pack with its `game.yaml` edited: each `[from, to]` must be found, and is replaced. */
function lureWith(edits: Array<[string, string]>): SourceFile[] {
  return readPackFolder(join(packs, 'lure')).map((f) => {
    if (f.path !== 'game.yaml') return f;
    const text = edits.reduce((t, [from, to]) => {
      expect(t).toContain(from);
      return t.replace(from, to);
    }, f.text);
    return { ...f, text };
  });
}
