/**
 * `npm run bench:bots`: how the tree search plays the shipped packs, with 95% (Wilson) intervals.
 * Fixed seeds (game g has seed g), so a run with the same options prints the same wins.
 *
 * - Small World, 2 players: MCTS against random and against greedy, seats alternated (the bot sits
 *   first in odd games). A tie at the top counts half a win. Small World declares no `scoring:
 *   estimate`, and a playout of a whole game costs about a third of a second here, so the search is
 *   run twice: on the pack as shipped (playouts to the end) and on the pack with an estimate added in
 *   memory (`SW_ESTIMATE` below, coins plus a coin per region of its active race per round left), cut at `--depth`.
 * - Wrath of the Lich King, 2 heroes: team MCTS against random play at every difficulty (the
 *   difficulty is chosen for the table before the bots play; the rest of the setup is theirs). A
 *   game is won when the pack's scoring says so (`game.won`).
 * - Wroth solo against its AI: for every scenario card, the AI's faction and card chosen before
 *   the bots play, MCTS against random play; a game is won when the pack's `playersWin()` holds at
 *   its end.
 *
 * Options: --games N (each MCTS matchup; default 10), --iterations N (default 20), --depth N
 * (default 15), --only sw|sw-shipped|wotlk|wroth (repeatable; default sw, wotlk, wroth: Small World
 * as shipped is slow), --difficulties (WotLK's for MCTS, comma-separated; default normal; random
 * plays all four), --random-games N (the random rows of WotLK and Wroth; default 40), --cards N (Wroth's first N
 * scenario cards; default all), --max-steps N (default 3000). Also printed: the mean time of an
 * MCTS seat's choice and of a game, and what the full run (200 games a matchup) would take
 * at that pace on this machine.
 */
import './production.ts';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { compile, type SourceFile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { playByAgents, type AgentKind } from '../runtime/agents/index.ts';
import { apply, evaluate, newGame, standings, type CompiledPack, type GameState } from '../runtime/index.ts';
import { wilson } from '../simulate/study.ts';

const { values: args } = parseArgs({
  options: {
    games: { type: 'string', default: '10' },
    iterations: { type: 'string', default: '20' },
    depth: { type: 'string', default: '15' },
    only: { type: 'string', multiple: true },
    difficulties: { type: 'string', default: 'normal' },
    'random-games': { type: 'string', default: '40' },
    cards: { type: 'string' },
    'max-steps': { type: 'string', default: '3000' },
  },
});
const GAMES = Number(args.games);
const ITERATIONS = Number(args.iterations);
const DEPTH = Number(args.depth);
const MAX_STEPS = Number(args['max-steps']);
const FULL_RUN = 200;
const RANDOM_GAMES = Number(args['random-games']);
const MCTS_DIFFICULTIES = new Set(args.difficulties.split(','));
const only = new Set(args.only ?? ['sw', 'wotlk', 'wroth']);
const root = join(import.meta.dirname, '..', 'content');

const SW_ESTIMATE = '  estimate: it.coins + count(activeRegions(it)) * (game.rounds - game.round + 1)\n';

function packOf(files: SourceFile[]): CompiledPack {
  const r = compile(files);
  if (!r.pack) throw new Error(r.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`).join('\n'));
  return r.pack;
}

/** Time spent in the MCTS seats' choices, over all games of a matchup. */
interface Clock {
  decisions: number;
  ms: number;
}

/**
 * A game from `start` by the seats' agents through playByAgents, timing each choice of an MCTS seat
 * from one observed state to the next (its search, plus listing and applying the choice).
 */
function play(pack: CompiledPack, start: GameState, seed: number, kinds: AgentKind[], clock: Clock): GameState {
  const mcts = new Set(start.players.filter((_, i) => kinds[i % kinds.length].startsWith('mcts')));
  let asked: string | undefined;
  let at = 0;
  return playByAgents(pack, {
    players: start.players.length,
    seed,
    agents: kinds,
    maxSteps: MAX_STEPS,
    start,
    observe(state) {
      const now = performance.now();
      if (asked && mcts.has(asked)) (clock.decisions += 1), (clock.ms += now - at);
      asked = state.prompt?.player;
      at = now;
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

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function line(label: string, wins: number, games: number, clock?: Clock, seconds?: number): string {
  const { low, high } = wilson(wins, games);
  let out = `${label.padEnd(58)} ${String(wins).padStart(5)}/${games}  ${pct(wins / games).padStart(6)}  [${pct(low)}, ${pct(high)}]`;
  if (clock?.decisions) out += `  ${(clock.ms / clock.decisions / 1000).toFixed(2)} s per MCTS choice`;
  if (seconds !== undefined) out += `, ${(seconds / games).toFixed(1)} s a game (${FULL_RUN} games: ~${Math.round((seconds / games) * FULL_RUN / 60)} min)`;
  return out;
}

function smallWorld(): void {
  const files = readPackFolder(join(root, 'smallworld-wow'));
  const withEstimate = files.map((f) => (f.path === 'rules/game.yaml' ? { ...f, text: f.text.replace(/^ {2}tiebreak: .*\n/m, (m) => m + SW_ESTIMATE) } : f));
  const variants: Array<[string, CompiledPack, AgentKind]> = [];
  if (only.has('sw-shipped')) variants.push(['as shipped', packOf(files), `mcts:${ITERATIONS}`]);
  if (only.has('sw')) variants.push(['+ estimate', packOf(withEstimate), `mcts:${ITERATIONS}:depth=${DEPTH}`]);
  console.log(`\nSmall World, 2 players (${GAMES} games a matchup, seats alternated)`);
  for (const [name, pack, bot] of variants) {
    for (const opponent of ['random', 'greedy'] as AgentKind[]) {
      const clock = { decisions: 0, ms: 0 };
      const t = performance.now();
      let wins = 0;
      for (let g = 1; g <= GAMES; g++) {
        const botSeat = g % 2 ? 0 : 1;
        const kinds: AgentKind[] = botSeat === 0 ? [bot, opponent] : [opponent, bot];
        const st = play(pack, newGame(pack, { players: 2, seed: g }), g, kinds, clock);
        const rows = standings(st);
        const me = `p${botSeat + 1}`;
        const top = rows.filter((r) => r.score === rows[0].score && r.tiebreak === rows[0].tiebreak);
        if (top.some((r) => r.player === me)) wins += 1 / top.length;
      }
      console.log(line(`  ${name}: ${bot} vs ${opponent}`, wins, GAMES, clock, (performance.now() - t) / 1000));
    }
  }
}

function wrathOfTheLichKing(): void {
  const pack = packOf(readPackFolder(join(root, 'wotlk')));
  console.log(`\nWrath of the Lich King, 2 heroes (won = the pack's scoring; random: ${RANDOM_GAMES} games a row, MCTS: ${GAMES})`);
  for (const difficulty of ['beginner', 'normal', 'heroic', 'mythic']) {
    for (const bots of ['random', `mcts:${ITERATIONS}:team`] as AgentKind[]) {
      if (bots !== 'random' && !MCTS_DIFFICULTIES.has(difficulty)) continue;
      const games = bots === 'random' ? RANDOM_GAMES : GAMES;
      const clock = { decisions: 0, ms: 0 };
      const t = performance.now();
      let wins = 0;
      for (let g = 1; g <= games; g++) {
        const st = play(pack, setUp(pack, 2, g, [`choose ${difficulty}`]), g, [bots], clock);
        if (st.over && standings(st)[0].score > 0) wins++;
      }
      console.log(line(`  ${difficulty}: ${bots}`, wins, games, clock, (performance.now() - t) / 1000));
    }
  }
}

function wroth(): void {
  const pack = packOf(readPackFolder(join(root, 'wroth')));
  const won = pack.expression!('playersWin()');
  if (!won.ok) throw new Error(won.problems.map((p) => p.message).join('; '));
  console.log(`\nWroth, solo against its AI (won = playersWin() at the end; random: ${RANDOM_GAMES} games a row, MCTS: ${GAMES})`);
  for (const card of (pack.byKind.scenario ?? []).slice(0, args.cards ? Number(args.cards) : undefined)) {
    const faction = pack.entities[card].props.faction as string;
    const row: string[] = [];
    for (const bots of ['random', `mcts:${ITERATIONS}`] as AgentKind[]) {
      const games = bots === 'random' ? RANDOM_GAMES : GAMES;
      const clock = { decisions: 0, ms: 0 };
      const t = performance.now();
      let wins = 0;
      for (let g = 1; g <= games; g++) {
        const st = play(pack, setUp(pack, 1, g, [`choose ${faction}`, `choose ${card}`]), g, [bots], clock);
        if (st.over && evaluate(st, won) === true) wins++;
      }
      row.push(line(`  ${card} (${faction} AI): ${bots}`, wins, games, clock, (performance.now() - t) / 1000));
    }
    console.log(row.join('\n'));
  }
}

console.log(`bench:bots — ${GAMES} games a matchup, mcts:${ITERATIONS} (depth ${DEPTH} where an estimate cuts), seeds 1..${GAMES}`);
if (only.has('sw')) smallWorld();
if (only.has('wotlk')) wrathOfTheLichKing();
if (only.has('wroth')) wroth();
