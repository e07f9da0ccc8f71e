/**
 * A worker thread of a simulation: compiles the pack once, then plays the games it is given.
 * Node only (reads the pack folder).
 */
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import type { CompiledPack } from '../runtime/index.ts';
import type { AgentKind } from '../runtime/agents.ts';
import { playGame, type GameSummary } from './playout.ts';

export interface Chunk {
  dir: string;
  players: number;
  seeds: number[];
  agents: AgentKind[];
  maxSteps: number;
}

const packs = new Map<string, CompiledPack>();

function packOf(dir: string): CompiledPack {
  let pack = packs.get(dir);
  if (!pack) {
    const files = readPackFolder(dir);
    const r = compile(files, { dependencies: dependenciesOf(dir, files) });
    if (!r.pack) throw new Error(`${dir} does not compile: run \`rulebook check ${dir}\``);
    pack = r.pack;
    packs.set(dir, pack);
  }
  return pack;
}

export function playChunk(chunk: Chunk): GameSummary[] {
  const pack = packOf(chunk.dir);
  return chunk.seeds.map((seed) => playGame(pack, { players: chunk.players, seed, agents: chunk.agents, maxSteps: chunk.maxSteps }));
}
