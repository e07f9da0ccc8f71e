/**
 * The bot sweep: whole games by seeded random agents, with the pack's invariants checked on the
 * state after setup and after every choice, not only at the end. A game that breaks an invariant,
 * gets stuck, has no end within its step budget or makes a rule throw is a failure, with the
 * seed and step that replay it. `sweepPacks` sweeps every pack of a folder and gives the counts a
 * script can print (`npm run reliability`); the test sweep plays the same games through
 * `sweepPack`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { playByAgents, type AgentKind } from '../runtime/agents.ts';
import { violations, type Choice, type CompiledPack, type GameState } from '../runtime/index.ts';

export interface SweepFailure {
  pack: string;
  players?: number;
  seed?: number;
  /** The choices made when it failed (0: right after setup). */
  step?: number;
  message: string;
}

export interface SweepReport {
  games: number;
  /** Choices made across the games, each followed by a check of the invariants. */
  steps: number;
  failures: SweepFailure[];
}

export interface SweepOptions {
  players: number;
  /** The games' seeds. */
  seeds: number[];
  /** A game with no end after this many choices is a failure. */
  maxSteps: number;
  agents?: AgentKind | AgentKind[];
  /** Told of every state the agents reach, with the choice that led there (none after setup). */
  observe?: (state: GameState, choice?: Choice) => void;
  /** Told of each game's last state. */
  onGame?: (state: GameState, seed: number) => void;
}

/** Games of one pack with one number of players, one per seed. */
export function sweepPack(pack: CompiledPack, o: SweepOptions): SweepReport {
  const report: SweepReport = { games: 0, steps: 0, failures: [] };
  for (const seed of o.seeds) {
    const failure = (step: number, message: string) => report.failures.push({ pack: pack.id, players: o.players, seed, step, message });
    let step = 0;
    report.games += 1;
    try {
      const { state, stopped } = playByAgents(pack, {
        players: o.players,
        seed,
        agents: o.agents ?? 'random',
        maxSteps: o.maxSteps,
        observe: (st, choice) => {
          step = st.choices.length;
          if (choice) report.steps += 1;
          const broken = violations(st);
          if (broken.length) throw new InvariantBroken(broken.map((v) => `invariant broken: ${v.message} [${v.rule}]`).join('; '));
          o.observe?.(st, choice);
        },
      });
      if (stopped) failure(state.choices.length, stopped.reason);
      o.onGame?.(state, seed);
    } catch (e) {
      failure(step, e instanceof InvariantBroken ? e.message : `a rule failed: ${(e as Error).stack ?? e}`);
    }
  }
  return report;
}

class InvariantBroken extends Error {}

const CONTENT = fileURLToPath(new URL('../content', import.meta.url));

export interface SweepPacksOptions {
  /** Seeds per number of players: 1…seeds. */
  seeds: number;
  /** The folder of packs (default: the shipped `content/`). */
  root?: string;
  /** Only these packs (folder names). */
  packs?: string[];
  maxSteps?: number;
}

/** Every pack of a folder, every number of players it allows, `seeds` games each. */
export function sweepPacks(o: SweepPacksOptions): SweepReport {
  const root = o.root ?? CONTENT;
  const total: SweepReport = { games: 0, steps: 0, failures: [] };
  const dirs = readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'pack.yaml')) && (!o.packs || o.packs.includes(d.name)))
    .map((d) => d.name)
    .sort();
  for (const name of dirs) {
    const dir = join(root, name);
    const files = readPackFolder(dir);
    const { pack } = compile(files, { dependencies: dependenciesOf(dir, files) });
    if (!pack) {
      total.failures.push({ pack: name, message: `does not compile: run \`rulebook check ${dir}\`` });
      continue;
    }
    const seeds = Array.from({ length: o.seeds }, (_, i) => i + 1);
    for (let players = pack.players.min; players <= pack.players.max; players++) {
      const r = sweepPack(pack, { players, seeds, maxSteps: o.maxSteps ?? 20_000 });
      total.games += r.games;
      total.steps += r.steps;
      total.failures.push(...r.failures);
    }
  }
  return total;
}
