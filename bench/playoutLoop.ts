/**
 * A pack's random playouts in playout mode, nothing else: the program `bench/instructions.sh` counts
 * the instructions of under valgrind. `npx tsx bench/playoutLoop.ts <pack folder> <games>`.
 */
import { compile } from '../compiler/index.ts';
import { readPackFolder } from '../compiler/packFolder.ts';
import { packPlayer } from './packPlayout.ts';

const [dir = 'test/packs/tictactoe', count = '1000'] = process.argv.slice(2);
const { pack, diagnostics } = compile(readPackFolder(dir));
if (!pack) throw new Error(`${dir} does not compile: ${diagnostics.map((d) => d.message).join('; ')}`);
const play = packPlayer(pack, 2, 'generated', true);
const games = Number(count);
for (let seed = 1; seed <= games; seed++) play(seed);
