// A fuzzing worker thread: TypeScript compiled on the fly by tsx, as the CLI and the simulation's
// workers are, so a clone needs no build step.
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';
register();
const { checkCase } = await import('./fuzzCheck.ts');
parentPort.on('message', (m) => parentPort.postMessage(checkCase(m.seed, m.n)));
parentPort.postMessage({ ready: true });
