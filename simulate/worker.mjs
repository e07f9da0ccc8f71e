// The entry of a simulation's worker threads: the simulation is TypeScript, compiled on the fly by
// tsx as the CLI is (bin/rulebook.mjs), so a clone needs no build step.
import { register } from 'tsx/esm/api';
register();
const { playChunk } = await import('./worker.ts');
export default playChunk;
