import { apply, legalChoices, newGame, standings, type GameState, type LogEntry } from '../runtime/index.ts';
import { playByAgents } from '../runtime/agents/index.ts';
import { display } from '../runtime/values.ts';
import type { CompiledPack } from '../compiler/index.ts';
import { checkBots } from '../runtime/agents.ts';
import { botKinds, runnablePack } from './runnable.ts';
import { plural } from './check.ts';
import type { Io } from './io.ts';

export interface PlayOptions {
  players?: number;
  seed: number;
  /** Every seat a bot: `true` (bare `--bots`) for random bots, or the kinds, one for every seat or one per seat. */
  bots?: boolean | string[];
  maxSteps: number;
  quiet?: boolean;
  json?: boolean;
}

/**
 * `rulebook play PACK`: a whole game, by seeded bots (`--bots`, through the agents' own loop, so
 * the game is the one the playground and `simulate` play) or by a person on standard input.
 * Prints each log entry with the rule that caused it, then the standings.
 */
export async function play(dir: string, options: PlayOptions, io: Io): Promise<number> {
  const kinds = botKinds(options.bots);
  const runnable = runnablePack(dir, options.players, io);
  if (!runnable) return 1;
  const { pack, players } = runnable;
  checkBots(kinds, pack);
  const human = !options.json && !options.quiet;
  if (human) io.out(`${pack.name.en ?? pack.id}: ${players} players, seed ${options.seed}${kinds ? `, bots${Array.isArray(options.bots) ? ` (${kinds.join(', ')})` : ''}` : ''}\n`);
  let shown = 0;
  const showLog = (state: GameState) => {
    if (human) for (const entry of state.log.slice(shown)) io.out(formatEntry(entry) + '\n');
    shown = state.log.length;
  };
  let start: GameState;
  try {
    start = newGame(pack, { players, seed: options.seed });
  } catch (e) {
    io.err(`the game could not start: ${(e as Error).message}\n`);
    return 1;
  }
  let game: { state: GameState; problem?: string; abandoned?: boolean };
  if (kinds) {
    const r = playByAgents(pack, { players, seed: options.seed, agents: kinds, maxSteps: options.maxSteps, start, observe: showLog });
    game = { state: r.state, problem: r.stopped?.kind === 'stuck' ? r.stopped.reason : undefined };
  } else game = await playByHand(pack, start, options.maxSteps, showLog, io);
  const { state, problem, abandoned } = game;
  const steps = state.choices.length;
  const table = standings(state);
  if (options.json) {
    io.out(
      JSON.stringify(
        { pack: pack.id, players, seed: options.seed, steps, over: state.over, problem, choices: state.choices, log: state.log, standings: table },
        null,
        2,
      ) + '\n',
    );
  } else {
    if (problem) io.err(`error: ${problem} (after ${plural(steps, 'step')})\n`);
    else if (abandoned) io.out(`game abandoned after ${plural(steps, 'step')}\n`);
    else if (!state.over) io.out(`stopped after ${plural(steps, 'step')} (--max-steps); the game is not over\n`);
    else io.out(`game over after ${plural(steps, 'step')}\n`);
    io.out(`standings${state.over ? '' : ' so far'}:\n`);
    table.forEach((r, i) => io.out(`  ${i + 1}. ${display(pack, r.player)} (${r.player})  score ${r.score}${r.tiebreak ? `, tiebreak ${r.tiebreak}` : ''}\n`));
  }
  return problem ? 1 : 0;
}

/** A game played by a person picking numbered choices, until its end, `maxSteps` or `q`. */
async function playByHand(pack: CompiledPack, state: GameState, maxSteps: number, showLog: (state: GameState) => void, io: Io): Promise<{ state: GameState; problem?: string; abandoned?: boolean }> {
  showLog(state);
  while (!state.over && state.choices.length < maxSteps) {
    const who = state.prompt?.player;
    const choices = legalChoices(state);
    if (!who || !choices.length) return { state, problem: who ? `${display(pack, who)} must act but has no legal choice` : 'the game is not over, but nobody is to act' };
    const choice = await ask(pack, state, choices, io);
    if (!choice) return { state, abandoned: true };
    const r = apply(state, choice);
    if (!r.ok) {
      io.out(`refused: ${r.reason}${r.rule ? `  [${r.rule}]` : ''}\n`);
      continue;
    }
    state = r.state;
    showLog(state);
  }
  return { state };
}

/** A log entry as one line: the step, the text, and the rule that caused it. */
export function formatEntry(entry: LogEntry): string {
  const step = entry.step < 0 ? 'setup' : String(entry.step + 1);
  return `${step.padStart(5)}  ${entry.text}${entry.rule ? `   [${entry.rule}]` : ''}`;
}

/** Lists the choices, numbered, and reads a number; `q` or the end of input stops. */
async function ask(pack: CompiledPack, state: GameState, choices: ReturnType<typeof legalChoices>, io: Io) {
  const who = state.prompt!.player;
  io.out(`\n${display(pack, who)} (${who}) to act${state.prompt?.text ? `: ${state.prompt.text}` : ''}\n`);
  choices.forEach((c, i) => io.out(`  ${String(i + 1).padStart(2)}. ${c.label}${c.label !== c.id ? `   (${c.id})` : ''}\n`));
  for (;;) {
    io.out(`choice [1-${choices.length}, q to quit]: `);
    const line = await io.readLine();
    if (line === undefined || /^\s*q(uit)?\s*$/i.test(line)) {
      io.out('\n');
      return undefined;
    }
    const n = Number(line.trim());
    const picked = Number.isInteger(n) && n >= 1 && n <= choices.length ? choices[n - 1] : choices.find((c) => c.id === line.trim());
    if (picked) {
      io.out('\n');
      return picked;
    }
    io.out(`type a number from 1 to ${choices.length}\n`);
  }
}
