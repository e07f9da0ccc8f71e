/**
 * Bots and balance simulation on the real packs: games played to their end by agents, summed up
 * into win shares by seat and by the cards held at the end, the same whatever the number of threads.
 * The study's own figures are tested in study.test.ts.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { greedyAgent, playByAgents, randomAgent, type AgentKind } from '../runtime/agents.ts';
import { cardHolders, legalChoices, newGame, standings, type CompiledPack, type GameState } from '../runtime/index.ts';
import { study, wilson } from '../simulate/study.ts';
import { playGame, type GameSummary } from '../simulate/playout.ts';
import { simulate, type RunTimeline } from '../simulate/run.ts';
import { compiledPack, readPackContent } from '../simulate/packContent.ts';
import { begun, chunkPlayer, claimedSeeds, END, playChunk, sharedClaims, type ResultsMessage } from '../simulate/worker.ts';
import { packForm } from '../runtime/transfer.ts';
import { MessageChannel } from 'node:worker_threads';
import { sweepPack } from '../simulate/sweep.ts';
import { rulebook } from './helpers/cli.ts';

const dir = join(import.meta.dirname, '..', 'content', 'smallworld-wow');
const pack = compile(readPackFolder(dir)).pack!;

describe('agents', () => {
  it('a random agent picks among the legal choices, the same way for the same seed', () => {
    const st = newGame(pack, { players: 3, seed: 5 });
    const legal = legalChoices(st, { labels: false });
    const a = randomAgent(5, 'p1');
    const b = randomAgent(5, 'p1');
    const picks = [0, 1, 2].map(() => a.choose(st, legal, 'p1').id);
    expect([0, 1, 2].map(() => b.choose(st, legal, 'p1').id)).toEqual(picks);
    for (const id of picks) expect(legal.map((c) => c.id)).toContain(id);
  });

  it('a greedy agent takes the free combo at the top of the column, not one it must pay for', () => {
    const st = newGame(pack, { players: 2, seed: 3 });
    const legal = legalChoices(st, { labels: false });
    expect(legal.map((c) => c.id)).toContain('pick 1');
    expect(greedyAgent(3, 'p1').choose(st, legal, 'p1').id).toBe('pick 1');
  });
});

describe('one game wherever it is played', () => {
  /** `rulebook play --json` of a pack folder with these extra arguments. */
  const cliGame = async (folder: string, ...args: string[]) => {
    const { code, out } = await rulebook(['play', folder, ...args, '--json']);
    expect(code).toBe(0);
    return JSON.parse(out);
  };

  it('the same pack, seed and bots play the same game in `rulebook play`, `simulate` and the sweep', async () => {
    const o = { players: 3, seed: 9, agents: 'random' as const, maxSteps: 10_000 };
    const cli = await cliGame(dir, '--players', '3', '--seed', '9', '--bots');
    const game = playByAgents(pack, o);
    const summary = playGame(pack, o);
    let swept: GameState | undefined;
    sweepPack(pack, { ...o, seeds: [o.seed], onGame: (st) => (swept = st) });

    expect(game.state.over).toBe(true);
    expect(cli.choices).toEqual(game.state.choices);
    expect(cli.log).toEqual(game.state.log);
    expect(cli.standings).toEqual(summary.standings);
    expect(summary.steps).toBe(game.state.choices.length);
    expect(JSON.stringify(swept)).toBe(JSON.stringify(game.state));
  });

  it('and with a greedy bot at one seat and a random one at the other', async () => {
    const tiny = compile(readPackFolder(join(import.meta.dirname, 'packs', 'tiny'))).pack!;
    const agents: AgentKind[] = ['greedy', 'random'];
    const cli = await cliGame(join(import.meta.dirname, 'packs', 'tiny'), '--seed', '5', '--bots', ...agents);
    const game = playByAgents(tiny, { players: 2, seed: 5, agents, maxSteps: 100 });
    const summary = playGame(tiny, { players: 2, seed: 5, agents, maxSteps: 100 });
    expect(game.state.over).toBe(true);
    expect(cli.choices).toEqual(game.state.choices);
    expect(cli.standings).toEqual(summary.standings);
  });

  it('an agent picks from the state alone: a game taken over midway goes on as it would have', () => {
    const whole = playByAgents(pack, { players: 3, seed: 4, agents: 'random', maxSteps: 30 });
    const half = playByAgents(pack, { players: 3, seed: 4, agents: 'random', maxSteps: 15 });
    const resumed = playByAgents(pack, { players: 3, seed: 4, agents: 'random', maxSteps: 30, start: half.state });
    expect(resumed.state.choices).toEqual(whole.state.choices);
  });
});

describe('a game by agents', () => {
  it('plays Small World to its end and sums it up', () => {
    const g = playGame(pack, { players: 3, seed: 2, agents: 'random', maxSteps: 10_000 });
    expect(g.over).toBe(true);
    expect(g.stuck).toBeUndefined();
    expect(g.steps).toBeGreaterThan(30);
    expect(g.standings.map((r) => r.player).sort()).toEqual(['p1', 'p2', 'p3']);
    expect(g.winners).toContain(g.standings[0].player);
    // Active races (the default role of a race card) are held by the players who play them; a
    // player who went into decline on the last turn holds none.
    const races = Object.entries(g.held).filter(([id, holders]) => pack.entities[id].kind === 'race' && holders.length);
    expect(races.length).toBeGreaterThanOrEqual(2);
    for (const [, holders] of races) expect(holders).toHaveLength(1);
  });

  // A simulation plays in playout mode (no log line, blank choices): what it sums up is what the
  // recorded game, every choice made by id and logged, ends with, game for game.
  it('sums up the game the recorded way of playing plays, game for game', () => {
    const teamsDir = join(import.meta.dirname, '..', 'content', 'smallworld-wow-teams');
    const teamsFiles = readPackFolder(teamsDir);
    const teams = compile(teamsFiles, { dependencies: dependenciesOf(teamsDir, teamsFiles) }).pack!;
    const tiny = compile(readPackFolder(join(import.meta.dirname, 'packs', 'tiny'))).pack!;
    const games: Array<[CompiledPack, number, number, AgentKind[]]> = [
      ...[2, 3, 4, 5].flatMap((players) => [11, 12].map((seed): [CompiledPack, number, number, AgentKind[]] => [pack, players, seed, ['random']])),
      [teams, 4, 3, ['random']],
      [pack, 3, 5, ['greedy', 'random']],
      [tiny, 2, 5, ['greedy', 'random']],
    ];
    for (const [p, players, seed, agents] of games) {
      const recorded = playByAgents(p, { players, seed, agents, maxSteps: 10_000 }).state;
      const g = playGame(p, { players, seed, agents, maxSteps: 10_000 });
      const rows = standings(recorded);
      const at = `${p.id} ${players}p seed ${seed} ${agents.join(',')}`;
      expect(recorded.over, at).toBe(true);
      expect({ over: g.over, steps: g.steps, turns: g.turns, standings: g.standings, held: g.held }, at).toEqual({
        over: true,
        steps: recorded.choices.length,
        turns: recorded.turn,
        standings: rows,
        held: cardHolders(recorded),
      });
      expect(g.winners, at).toEqual(rows.filter((r) => r.score === rows[0].score && r.tiebreak === rows[0].tiebreak).map((r) => r.player));
    }
  });

  it('says why a game did not end', () => {
    const g = playGame(pack, { players: 2, seed: 2, agents: 'random', maxSteps: 10 });
    expect(g.over).toBe(false);
    expect(g.stuck).toBe('no end after 10 choices');
  });
});

describe('balance figures', () => {
  it('gives a 95% Wilson interval', () => {
    const { low, high } = wilson(5, 10);
    expect(low).toBeCloseTo(0.2366, 3);
    expect(high).toBeCloseTo(0.7634, 3);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it('splits a tied win between the tied, by seat and by card', () => {
    const game = (seed: number, winners: string[]): GameSummary => ({
      seed,
      players: 2,
      steps: 10,
      over: true,
      standings: [
        { player: 'p1', score: 10, tiebreak: 0 },
        { player: 'p2', score: winners.length === 2 ? 10 : 5, tiebreak: 0 },
      ],
      winners,
      turns: 4,
      held: { orcs: ['p1'], dwarves: ['p2'] },
      kinds: { orcs: 'race', dwarves: 'race' },
    });
    const r = study([game(1, ['p1']), game(2, ['p1', 'p2'])]);
    expect(r.seats.map((s) => s.wins)).toEqual([1.5, 0.5]);
    expect(r.kinds[0].cards.map((c) => [c.card, c.share])).toEqual([
      ['orcs', 0.75],
      ['dwarves', 0.25],
    ]);
    expect(r.even).toBe(0.5);
  });
});

describe('balance figures of a cooperative game', () => {
  it('gives the table’s mean score by card when every player always scores the same', () => {
    const game = (seed: number, won: boolean, held: Record<string, string[]>): GameSummary => ({
      seed,
      players: 2,
      steps: 10,
      over: true,
      standings: [
        { player: 'p1', score: won ? 1 : 0, tiebreak: 0 },
        { player: 'p2', score: won ? 1 : 0, tiebreak: 0 },
      ],
      winners: ['p1', 'p2'],
      turns: 2,
      held,
      kinds: Object.fromEntries(Object.keys(held).map((h) => [h, 'hero'])),
    });
    const r = study([game(1, true, { jaina: ['p1'], thrall: ['p2'] }), game(2, false, { jaina: ['p2'], varian: ['p1'] })]);
    expect(r.cooperative).toBe(true);
    expect(r.kinds[0].cards.map((c) => [c.card, c.meanScore])).toEqual([
      ['thrall', 1],
      ['jaina', 0.5],
      ['varian', 0],
    ]);
  });

  it('knows Wrath of the Lich King for a cooperative game', async () => {
    const { out } = await rulebook(['simulate', join(import.meta.dirname, '..', 'content', 'wotlk'), '--games', '2', '--players', '2', '--workers', '1']);
    expect(out).toContain('One score for the table (a solo or cooperative game): every player scored the same in every game');
  });
});

describe('simulate', () => {
  // The small pack keeps the cost to starting the threads; 8 games are two batches, one a thread.
  it('gives the same games on one thread and on two', async () => {
    const tiny = join(import.meta.dirname, 'packs', 'tiny');
    const options = { games: 8, players: 2, seed: 11, agents: ['random' as const], maxSteps: 10_000 };
    const one = await simulate(tiny, { ...options, workers: 1 });
    const progress: number[] = [];
    const two = await simulate(tiny, { ...options, workers: 2, onProgress: (n) => progress.push(n) });
    expect(two).toEqual(one);
    // The threads claim games from one list: each is played once, and progress counts both threads' games.
    expect(progress.at(-1)).toBe(8);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(one.map((g) => g.seed)).toEqual([11, 12, 13, 14, 15, 16, 17, 18]);
    expect(new Set(one.map((g) => JSON.stringify(g.standings))).size).toBeGreaterThan(1);
  });

  // The bench's accounting of a run's idle time (bench/run.ts) reads these spans.
  it("tells where each thread's time went: a span a thread, this one first, all the games counted once", async () => {
    const tiny = join(import.meta.dirname, 'packs', 'tiny');
    const options = { games: 12, players: 2, seed: 5, agents: ['random' as const], maxSteps: 10_000 };
    const timelines: RunTimeline[] = [];
    const one = await simulate(tiny, { ...options, workers: 1, onTimeline: (t) => timelines.push(t) });
    expect(await simulate(tiny, { ...options, workers: 2, onTimeline: (t) => timelines.push(t) })).toEqual(one);
    const [alone, both] = timelines;
    expect(alone.threads.map((s) => s.games)).toEqual([12]);
    expect(both.threads).toHaveLength(2);
    expect(both.threads[0].games + both.threads[1].games).toBe(12);
    // Each thread's times are read on its own clock: its games lie between its first and its last.
    for (const s of [...alone.threads, ...both.threads].filter((x) => x.games > 0)) {
      expect(s.first).toBeLessThanOrEqual(s.last);
      expect(s.playing).toBeGreaterThan(0);
      expect(s.playing).toBeLessThanOrEqual(s.last - s.first + 1e-6);
    }
    expect(alone.start).toBeLessThanOrEqual(alone.threads[0].first);
    expect(alone.threads[0].back).toBeLessThanOrEqual(alone.end);
    // This thread has its own games as it plays them; a worker's come over by its end at the latest.
    expect(both.threads[0].early).toBe(both.threads[0].games);
    expect(both.threads[1].early).toBeLessThanOrEqual(both.threads[1].games);
  });

  // A worker thread sends its games in batches as it plays them (Chunk.results), then END, the rest
  // with its answer; here a batch after each game, so that every game comes by the port whatever the
  // machine's speed.
  it('a worker thread sends its games as it plays them, then says it is done: with those of its answer, the games of this thread, in order', async () => {
    const tiny = readPackContent(join(import.meta.dirname, 'packs', 'tiny'));
    const play = chunkPlayer({ pack: packForm(compiledPack(tiny)) }, 0);
    const seeds = [7, 8, 9, 10, 11];
    const base = { players: 2, seeds, agents: ['random' as AgentKind], maxSteps: 10_000 };
    const { port1, port2 } = new MessageChannel();
    onTestFinished(() => port1.close());
    const messages: ResultsMessage[] = [];
    port1.on('message', (m: ResultsMessage) => messages.push(m));
    const claims = sharedClaims();
    const answer = await play({ ...base, claims, results: port2 });
    // The run's thread yields less often once it reads here that every worker thread has begun.
    expect(begun({ ...base, claims })).toBe(1);
    while (!messages.includes(END)) await new Promise((resolve) => setImmediate(resolve));
    expect(answer.games).toEqual([]);
    expect(messages.pop()).toBe(END);
    const batches = messages.filter((m) => m !== END);
    expect(batches).toHaveLength(messages.length);
    expect(batches.map((b) => b.length)).toEqual(seeds.map(() => 1));
    expect(batches.flat()).toEqual(await playChunk(compiledPack(tiny), base));
  });

  // The games a worker sends in batches are put back with the rest in seed order. A worker thread
  // sends what it has played once 10 ms of its task have gone by (SEND_MS), and 10 games of Small
  // World take longer than that on any machine of today (~4.5 CPU-ms a game, simulate/run.ts): a run
  // where it played as many sent some through the port. A cold worker thread may begin when this one
  // has played most games (once, on a busy 2-core machine: none in the first run, 13 in the next), so
  // runs are played until one is. This thread reads the batches between its own games, not only when
  // it yields (every 200 ms, longer than its part of the run): some come while it still plays
  // (RunTimeline's `early`), unless the worker thread began as this one ended, so runs are played
  // until one has.
  it('gives the same games on one thread and on two when the worker thread sends them in batches, read as they come', async () => {
    const content = readPackContent(dir);
    const options = { games: 60, players: 2, seed: 40, agents: ['random' as const], maxSteps: 5000 };
    const alone = await simulate(content, { ...options, workers: 1 });
    let workerGames = 0;
    let early = 0;
    const timeline = (t: RunTimeline) => {
      workerGames = t.threads[1].games;
      early = t.threads[1].early;
    };
    for (let run = 0; run < 8 && (workerGames < 10 || early === 0); run++) {
      expect(await simulate(content, { ...options, workers: 2, onTimeline: timeline })).toEqual(alone);
    }
    expect(workerGames).toBeGreaterThanOrEqual(10);
    expect(early).toBeGreaterThan(0);
    expect(early).toBeLessThanOrEqual(workerGames);
  });

  // A worker thread that fails stops the others claiming games itself, before this thread hears of it,
  // and says it is done with its results port: the port closing without that is the thread gone.
  it('a worker thread that fails leaves no game to claim, and says it is done', async () => {
    const tiny = readPackContent(join(import.meta.dirname, 'packs', 'tiny'));
    const play = chunkPlayer({ pack: packForm(compiledPack(tiny)) });
    const { port1, port2 } = new MessageChannel();
    onTestFinished(() => port1.close());
    const messages: ResultsMessage[] = [];
    port1.on('message', (m: ResultsMessage) => messages.push(m));
    const chunk = { players: 2, seeds: [1, 2, 3], agents: ['no-such-bot' as AgentKind], maxSteps: 10_000, claims: sharedClaims() };
    await expect(play({ ...chunk, results: port2 })).rejects.toThrow();
    expect([...claimedSeeds(chunk)]).toEqual([]);
    while (!messages.length) await new Promise((resolve) => setImmediate(resolve));
    expect(messages).toEqual([END]);
  });

  // The CLI reads the folder once and gives the simulation what it read: the pack it checked and
  // whose hash names the study is the pack played, even if the folder is edited in the meantime.
  it('plays the content it is given, as read, not the folder as it is now', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'rulebook-simulate-content-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    cpSync(join(import.meta.dirname, 'packs', 'tiny'), folder, { recursive: true });
    const options = { games: 6, players: 2, seed: 3, agents: ['random' as const], maxSteps: 10_000 };
    const content = readPackContent(folder);
    const asRead = await simulate(folder, { ...options, workers: 1 });
    const game = join(folder, 'game.yaml');
    writeFileSync(game, readFileSync(game, 'utf8').replace('then 2 else 1', 'then 5 else 1'));
    expect(await simulate(folder, { ...options, workers: 1 })).not.toEqual(asRead);
    expect(await simulate(content, { ...options, workers: 2 })).toEqual(asRead);
  });

  it('`rulebook simulate --json` prints the balance figures', async () => {
    const { code, out } = await rulebook(['simulate', dir, '--games', '3', '--players', '2', '--workers', '1', '--json']);
    expect(code).toBe(0);
    const r = JSON.parse(out);
    expect(r).toMatchObject({ pack: 'smallworld-wow', players: 2, games: 3, finished: 3, even: 0.5, seeds: { first: 1, last: 3 } });
    expect(r.seats).toHaveLength(2);
    expect(r.kinds.flatMap((k: { cards: unknown[] }) => k.cards).length).toBeGreaterThan(2);
  });

  it('the README’s example prints the study and writes its page (with fewer games, on one thread)', async () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('npx rulebook simulate content/smallworld-wow'))!;
    const args = line.replace(/\s+#.*$/, '').split(/\s+/).slice(2);
    const folder = mkdtempSync(join(tmpdir(), 'rulebook-simulate-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const html = join(folder, 'study.html');
    const set = (name: string, value: string) => args.splice(args.indexOf(name) + 1, 1, value);
    expect(args).toContain('--html');
    set('--games', '3');
    set('--html', html);
    const { code, out: text } = await rulebook([...args.map((a) => (a.startsWith('content/') ? join(import.meta.dirname, '..', a) : a)), '--workers', '1']);
    expect(code).toBe(0);
    expect(text).toMatch(/^Small World of Warcraft: 3 games of 3 players by random bots, seeds 1–3\n3 finished, 0 ended by the evaluation budget, 0 stuck/);
    for (const part of ['Game length: choices mean', 'Fair band: an even share 33.3% ± 5.0 points', 'First player: ', 'Wins by seat:', 'each of the races at the end', `The study with its charts: ${html}`]) expect(text).toContain(part);
    expect(readFileSync(html, 'utf8')).toContain('<script type="application/json" id="study-charts">');
  });

  it('refuses a bot it does not know, as a wrong command line', async () => {
    const { code, err } = await rulebook(['simulate', dir, '--bots', 'clever']);
    expect(code).toBe(2);
    expect(err).toContain('`clever` is not a bot');
  });
});
