import type { CompiledPack } from '../compiler/index.ts';
import { AgentKindError, parseAgentKind, type AgentKind } from '../runtime/agents/index.ts';
import { plural } from './check.ts';
import { UsageError, type Io } from './io.ts';
import { compileResult, readPackContent, type PackContent } from '../simulate/packContent.ts';
import { isDir, isPackDir, packLabel, renderDiagnostic, type PackOnDisk } from './packs.ts';

/**
 * The compiled pack of a folder, for commands that play it, with the number of players to seat
 * (the pack's minimum unless asked), and the content read, for a command to play and name exactly
 * what was checked. A pack that does not compile gets its diagnostics printed and `undefined`; a
 * wrong folder or number of players is a wrong command line.
 */
export function runnablePack(dir: string, asked: number | undefined, io: Io): { pack: CompiledPack; players: number; content: PackContent } | undefined {
  if (!isDir(dir) || !isPackDir(dir)) throw new UsageError(`\`${dir}\` is not a pack folder (a folder with a pack.yaml)`);
  // Read and compiled as a simulation reads and compiles it, so that `rulebook simulate` reads and compiles the pack once.
  const content = readPackContent(dir);
  const onDisk: PackOnDisk = { dir, files: content.files, dependencies: content.dependencies, result: compileResult(content) };
  const pack = onDisk.result.pack;
  if (!pack) {
    for (const d of onDisk.result.diagnostics) io.err(renderDiagnostic(onDisk, d) + '\n\n');
    io.err(`${packLabel(onDisk)} does not compile: ${plural(onDisk.result.diagnostics.filter((d) => d.severity === 'error').length, 'error')}; run \`rulebook check ${dir}\`\n`);
    return undefined;
  }
  const players = asked ?? pack.players.min;
  if (players < pack.players.min || players > pack.players.max) throw new UsageError(`${pack.name.en ?? pack.id} is played by ${pack.players.min} to ${pack.players.max} players, not ${players}`);
  return { pack, players, content };
}

/**
 * The bots a command line asks for: `--bots` alone (`true`) is a random bot at every seat; kinds
 * (`random`, `greedy`, `mcts:200`, …, read by the agents' `parseAgentKind`) are one for every seat,
 * or one per seat. `undefined` when no bots are asked.
 */
export function botKinds(asked: boolean | string[] | undefined): AgentKind[] | undefined {
  if (!asked) return undefined;
  if (asked === true || !asked.length) return ['random'];
  for (const name of asked) {
    try {
      parseAgentKind(name);
    } catch (e) {
      if (e instanceof AgentKindError) throw new UsageError(e.message);
      throw e;
    }
  }
  return asked as AgentKind[];
}
