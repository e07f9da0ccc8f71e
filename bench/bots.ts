/**
 * `npm run bench:bots`: how the tree search plays the shipped packs, with 95% (Wilson) intervals.
 * Fixed seeds (game g has seed g), so a run with the same settings prints the same wins.
 *
 * - Small World, 2 players: MCTS against random and against greedy, seats alternated (the bot sits
 *   first in odd games). A tie at the top counts half a win. Playouts are cut at the depth and
 *   valued by the pack's `scoring: estimate`.
 * - Wrath of the Lich King, 2 heroes: team MCTS and random play at every difficulty (the
 *   difficulty is chosen for the table before the bots play; the rest of the setup is theirs). A
 *   game is won when the pack's scoring says so (`game.won`).
 * - Wroth solo against its AI: for every scenario card, the AI's faction and card chosen before
 *   the bots play, MCTS against random play; a game is won when the pack's `playersWin()` holds at
 *   its end.
 *
 * Every setting is a flag or an environment variable (the flag wins), so the full run is
 * `BOTS_GAMES=200 BOTS_RANDOM_GAMES=200 BOTS_ITERATIONS=40 BOTS_DEPTH=10 npm run bench:bots`:
 * --games / BOTS_GAMES (each MCTS matchup; default 10), --first / BOTS_FIRST (the first seed, for a
 * run in parts; default 1), --iterations / BOTS_ITERATIONS (default 20), --depth / BOTS_DEPTH
 * (default 15), --only / BOTS_ONLY (sw, sw-random, sw-greedy, wotlk, wroth, comma-separated; default
 * sw, wotlk, wroth), --difficulties / BOTS_DIFFICULTIES (WotLK's played; default all four),
 * --mcts-difficulties / BOTS_MCTS_DIFFICULTIES (those of them MCTS plays too; default normal),
 * --random-games / BOTS_RANDOM_GAMES (the random rows of WotLK and Wroth; default 40), --cards /
 * BOTS_CARDS (Wroth's first N scenario cards; default all), --max-steps / BOTS_MAX_STEPS (default
 * 3000), --mcts-flags / BOTS_MCTS_FLAGS (more options of the MCTS bots, comma-separated, e.g.
 * `horizon=turn`, `policy=greedy`), --wotlk-bots / BOTS_WOTLK_BOTS (WotLK's rows, comma-separated: `random`,
 * `mcts` for the MCTS bot of these settings, or any bot's name such as `prefer`, played for
 * --mcts-difficulties and --games like MCTS; default random, mcts). Also printed: the wall-clock and CPU time of an MCTS seat's choice and of a game, the
 * machine's load, what a 200-game matchup would take at that pace, and on stderr each game's
 * outcome as it ends (for WotLK with the round it ended in, the despair, the quests done and the
 * siege).
 */
import './production.ts';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { compile, type SourceFile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { playByAgents, type AgentKind } from '../runtime/agents/index.ts';
import { apply, evaluate, newGame, standings, type CompiledPack, type GameState } from '../runtime/index.ts';
import { wilson } from '../simulate/study.ts';

const FLAGS = ['games', 'first', 'iterations', 'depth', 'only', 'difficulties', 'mcts-difficulties', 'random-games', 'cards', 'max-steps', 'mcts-flags', 'wotlk-bots'] as const;
const { values: flags } = parseArgs({ options: Object.fromEntries(FLAGS.map((f) => [f, { type: 'string' }])) as Record<(typeof FLAGS)[number], { type: 'string' }> });
/** A setting: its flag, else its environment variable (`--random-games` is BOTS_RANDOM_GAMES), else the default. */
function setting(name: (typeof FLAGS)[number], fallback: string): string {
  return (flags[name] as string | undefined) ?? process.env[`BOTS_${name.toUpperCase().replaceAll('-', '_')}`] ?? fallback;
}
const GAMES = Number(setting('games', '10'));
const FIRST = Number(setting('first', '1'));
const ITERATIONS = Number(setting('iterations', '20'));
const DEPTH = Number(setting('depth', '15'));
const MAX_STEPS = Number(setting('max-steps', '3000'));
const FULL_RUN = 200;
const RANDOM_GAMES = Number(setting('random-games', '40'));
const DIFFICULTIES = setting('difficulties', 'beginner,normal,heroic,mythic').split(',');
const MCTS_DIFFICULTIES = new Set(setting('mcts-difficulties', 'normal').split(','));
const CARDS = setting('cards', '');
const MCTS_FLAGS = setting('mcts-flags', '').split(',').filter(Boolean).map((f) => `:${f}`).join('');
const only = new Set(setting('only', 'sw,wotlk,wroth').split(','));
const WOTLK_BOTS = setting('wotlk-bots', 'random,mcts').split(',');
const seeds = (n: number) => Array.from({ length: n }, (_, i) => FIRST + i);
const root = join(import.meta.dirname, '..', 'content');

function packOf(files: SourceFile[]): CompiledPack {
  const r = compile(files);
  if (!r.pack) throw new Error(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`).join('\n'));
  return r.pack;
}

/** Time spent in the MCTS seats' choices, over all games of a matchup. */
interface Clock {
  decisions: number;
  ms: number;
  /** The process's CPU time in them: what a choice costs with a core to itself, whatever the load. */
  cpuMs: number;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * A game from `start` by the seats' agents through playByAgents, timing each choice of an MCTS seat
 * from one observed state to the next (its search, plus listing and applying the choice).
 */
function play(pack: CompiledPack, start: GameState, seed: number, kinds: AgentKind[], clock: Clock): GameState {
  const mcts = new Set(start.players.filter((_, i) => kinds[i % kinds.length].startsWith('mcts')));
  let asked: string | undefined;
  let at = 0;
  let cpuAt = 0;
  return playByAgents(pack, {
    players: start.players.length,
    seed,
    agents: kinds,
    maxSteps: MAX_STEPS,
    start,
    observe(state) {
      const now = performance.now();
      const cpu = cpuMs();
      if (asked && mcts.has(asked)) (clock.decisions += 1), (clock.ms += now - at), (clock.cpuMs += cpu - cpuAt);
      asked = state.prompt?.player;
      at = now;
      cpuAt = cpu;
    },
  }).state;
}

/** The state after the table's setup choices, each the legal choice with this id. */
function setUp(pack: CompiledPack, players: number, seed: number, ids: string[]): GameState {
  let st = newGame(pack, { players, seed });
  for (const id of ids) {
    const r = apply(st, id);
    if (!r.ok) throw new Error(`setup choice \`${id}\` refused: ${r.reason}`);
    st = r.state;
  }
  return st;
}

/** One game's outcome on stderr as it ends, so a run stopped early still tells what it played. */
function progress(label: string, seed: number, won: number, clock: Clock, detail = ''): void {
  const pace = clock.decisions ? `, ${(clock.ms / clock.decisions / 1000).toFixed(2)} s per MCTS choice so far (${(clock.cpuMs / clock.decisions / 1000).toFixed(2)} s CPU)` : '';
  console.error(`${label} seed ${seed}: ${won}${detail}${pace}`);
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function line(label: string, wins: number, games: number, clock?: Clock, seconds?: number): string {
  const { low, high } = wilson(wins, games);
  let out = `${label.padEnd(58)} ${String(wins).padStart(5)}/${games}  ${pct(wins / games).padStart(6)}  [${pct(low)}, ${pct(high)}]`;
  if (clock?.decisions) out += `  ${(clock.ms / clock.decisions / 1000).toFixed(2)} s per MCTS choice (${(clock.cpuMs / clock.decisions / 1000).toFixed(2)} s CPU)`;
  if (seconds !== undefined) out += `, ${(seconds / games).toFixed(1)} s a game (${FULL_RUN} games: ~${Math.round((seconds / games) * FULL_RUN / 60)} min)`;
  return out;
}

function smallWorld(): void {
  const pack = packOf(readPackFolder(join(root, 'smallworld-wow')));
  const bot: AgentKind = `mcts:${ITERATIONS}:depth=${DEPTH}${MCTS_FLAGS}`;
  const opponents = (['random', 'greedy'] as AgentKind[]).filter((o) => only.has('sw') || only.has(`sw-${o}`));
  console.log(`\nSmall World, 2 players (${GAMES} games a matchup, seeds ${FIRST}..${FIRST + GAMES - 1}, seats alternated)`);
  for (const opponent of opponents) {
    const clock = { decisions: 0, ms: 0, cpuMs: 0 };
    const t = performance.now();
    let wins = 0;
    const bySeat = [0, 0];
    for (const g of seeds(GAMES)) {
      const botSeat = g % 2 ? 0 : 1;
      const kinds: AgentKind[] = botSeat === 0 ? [bot, opponent] : [opponent, bot];
      const st = play(pack, newGame(pack, { players: 2, seed: g }), g, kinds, clock);
      const rows = standings(st);
      const me = `p${botSeat + 1}`;
      const top = rows.filter((r) => r.score === rows[0].score && r.tiebreak === rows[0].tiebreak);
      const won = top.some((r) => r.player === me) ? 1 / top.length : 0;
      wins += won;
      bySeat[botSeat] += won;
      progress(`sw ${bot} vs ${opponent}`, g, won, clock);
    }
    console.log(line(`  ${bot} vs ${opponent}`, wins, GAMES, clock, (performance.now() - t) / 1000));
    console.log(`    by the bot's seat: first ${bySeat[0]}/${Math.ceil(GAMES / 2)}, second ${bySeat[1]}/${Math.floor(GAMES / 2)} (for odd first seeds the other way round)`);
  }
}

function wrathOfTheLichKing(): void {
  const pack = packOf(readPackFolder(join(root, 'wotlk')));
  // How far a game got, on each game's line: where it ended, the despair, the quests done, the siege.
  const reached = ['game.round', 'game.despair', 'count(quests where done)', 'game.siege'].map((source) => {
    const e = pack.expression!(source);
    if (!e.ok) throw new Error(e.problems.map((p) => p.message).join('; '));
    return e;
  });
  const howFar = (st: GameState) => {
    const [round, despair, done, siege] = reached.map((e) => evaluate(st, e));
    return ` (round ${round}, despair ${despair}, ${done} quests done${siege ? ', siege' : ''})`;
  };
  console.log(`\nWrath of the Lich King, 2 heroes (won = the pack's scoring; random: ${RANDOM_GAMES} games a row, MCTS: ${GAMES}; seeds from ${FIRST})`);
  for (const difficulty of DIFFICULTIES) {
    for (const bots of WOTLK_BOTS.map((b) => (b === 'mcts' ? `mcts:${ITERATIONS}:team:depth=${DEPTH}${MCTS_FLAGS}` : b)) as AgentKind[]) {
      if (bots !== 'random' && !MCTS_DIFFICULTIES.has(difficulty)) continue;
      const games = bots === 'random' ? RANDOM_GAMES : GAMES;
      if (!games) continue;
      const clock = { decisions: 0, ms: 0, cpuMs: 0 };
      const t = performance.now();
      let wins = 0;
      for (const g of seeds(games)) {
        const st = play(pack, setUp(pack, 2, g, [`choose ${difficulty}`]), g, [bots], clock);
        const won = st.over && standings(st)[0].score > 0 ? 1 : 0;
        wins += won;
        progress(`wotlk ${difficulty} ${bots}`, g, won, clock, howFar(st));
      }
      console.log(line(`  ${difficulty}: ${bots}`, wins, games, clock, (performance.now() - t) / 1000));
    }
  }
}

function wroth(): void {
  const pack = packOf(readPackFolder(join(root, 'wroth')));
  const won = pack.expression!('playersWin()');
  if (!won.ok) throw new Error(won.problems.map((p) => p.message).join('; '));
  console.log(`\nWroth, solo against its AI (won = playersWin() at the end; random: ${RANDOM_GAMES} games a row, MCTS: ${GAMES}; seeds from ${FIRST})`);
  const totals = new Map<string, [number, number]>();
  for (const card of (pack.byKind.scenario ?? []).slice(0, CARDS ? Number(CARDS) : undefined)) {
    const faction = pack.entities[card].props.faction as string;
    const row: string[] = [];
    for (const bots of ['random', `mcts:${ITERATIONS}:depth=${DEPTH}${MCTS_FLAGS}`] as AgentKind[]) {
      const games = bots === 'random' ? RANDOM_GAMES : GAMES;
      if (!games) continue;
      const clock = { decisions: 0, ms: 0, cpuMs: 0 };
      const t = performance.now();
      let wins = 0;
      for (const g of seeds(games)) {
        const st = play(pack, setUp(pack, 1, g, [`choose ${faction}`, `choose ${card}`]), g, [bots], clock);
        const w = st.over && evaluate(st, won) === true ? 1 : 0;
        wins += w;
        progress(`wroth ${card} ${bots}`, g, w, clock);
      }
      const [w, n] = totals.get(bots) ?? [0, 0];
      totals.set(bots, [w + wins, n + games]);
      row.push(line(`  ${card} (${faction} AI): ${bots}`, wins, games, clock, (performance.now() - t) / 1000));
    }
    console.log(row.join('\n'));
  }
  for (const [bots, [w, n]] of totals) console.log(line(`  every card: ${bots}`, w, n));
}

console.log(`bench:bots — mcts:${ITERATIONS}, depth ${DEPTH}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`);
if ([...only].some((o) => o.startsWith('sw'))) smallWorld();
if (only.has('wotlk')) wrathOfTheLichKing();
if (only.has('wroth')) wroth();
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
