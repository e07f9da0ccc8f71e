// The entry of a simulation's worker threads: the build of simulate/worker.ts when it is up to
// date, else the TypeScript through tsx, as for the CLI (bin/built.mjs). The pack is compiled here,
// as the thread starts, before the pool gives it games.
import Tinypool from 'tinypool';
import { importEntry } from '../bin/built.mjs';

const { chunkPlayer } = await importEntry('worker');
export default chunkPlayer(Tinypool.workerData);
