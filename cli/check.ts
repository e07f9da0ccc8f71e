import { packAt, packFoldersOf, packLabel, diagnosticFile, renderDiagnostic } from './packs.ts';
import type { Io } from './io.ts';

export interface CheckOptions {
  json?: boolean;
}

/** `rulebook check PACK…`: compiles each pack and prints its diagnostics like a compiler. Exit 1 on any error. */
export function check(paths: string[], options: CheckOptions, io: Io): number {
  const dirs = packFoldersOf(paths);
  const packs = dirs.map(packAt);
  let errors = 0;
  let warnings = 0;
  const report = packs.map((pack) => {
    const e = pack.result.diagnostics.filter((d) => d.severity === 'error').length;
    const w = pack.result.diagnostics.length - e;
    errors += e;
    warnings += w;
    return { pack, errors: e, warnings: w };
  });
  if (options.json) {
    io.out(
      JSON.stringify(
        {
          ok: errors === 0,
          errors,
          warnings,
          packs: report.map(({ pack, errors, warnings }) => ({
            path: pack.dir,
            id: packLabel(pack),
            ok: errors === 0,
            errors,
            warnings,
            diagnostics: pack.result.diagnostics.map((d) => ({ ...d, file: diagnosticFile(pack, d).path })),
          })),
        },
        null,
        2,
      ) + '\n',
    );
    return errors ? 1 : 0;
  }
  for (const { pack, errors: e, warnings: w } of report) {
    for (const d of pack.result.diagnostics) io.out(renderDiagnostic(pack, d) + '\n\n');
    io.out(`${packLabel(pack)} (${pack.dir}): ${e ? `${plural(e, 'error')}` : 'ok'}${w ? `, ${plural(w, 'warning')}` : ''}\n`);
  }
  io.out(`checked ${plural(packs.length, 'pack')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`);
  return errors ? 1 : 0;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
