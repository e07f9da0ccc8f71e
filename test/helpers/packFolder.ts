import { compile, type CompiledPack } from '../../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../../compiler/packFolder.ts';

/** The pack in folder `dir`, compiled with the packs it depends on, its scenarios left out. */
export function packIn(dir: string): CompiledPack {
  const files = readPackFolder(dir).filter((f) => !f.path.startsWith('scenarios/'));
  const { pack } = compile(files, { dependencies: dependenciesOf(dir, files) });
  if (!pack) throw new Error(`${dir} does not compile`);
  return pack;
}
