import { compile, formatDiagnostic, type CompiledPack, type Diagnostic } from '../../compiler/index.ts';
import type { SourceFile } from '../../compiler/source.ts';

/** A one-file pack for tests: a manifest plus `game.yaml` holding the given YAML. */
export function packFiles(gameYaml: string, players = { min: 1, max: 4 }): SourceFile[] {
  return [
    { path: 'pack.yaml', text: `id: test\nversion: 0.1.0\nname: { en: Test }\nlanguages: [en]\nplayers: { min: ${players.min}, max: ${players.max} }\n` },
    { path: 'game.yaml', text: gameYaml },
  ];
}

export function compileOk(gameYaml: string, players?: { min: number; max: number }): CompiledPack {
  return compileFilesOk(packFiles(gameYaml, players));
}

/** A pack of several files that must compile: its diagnostics, with the lines they point at, otherwise. */
export function compileFilesOk(files: SourceFile[]): CompiledPack {
  const r = compile(files);
  if (!r.pack) throw new Error(r.diagnostics.map((d) => formatDiagnostic(d, files.find((f) => f.path === d.file)?.text)).join('\n'));
  return r.pack;
}

export function diagnosticsOf(gameYaml: string): Diagnostic[] {
  return compile(packFiles(gameYaml)).diagnostics;
}

/**
 * A game of turns offering a `spin` action written by the test and `rest`: budget tests put a costly
 * rule there. One round of turns, or `rounds` of them.
 */
export const budgetGame = (rules: string, rounds = 1) => {
  const turns = `for p in players {\n      turn p { offer p: spin, rest }\n    }`;
  const flow = rounds === 1 ? turns : `loop max ${rounds} {\n      ${turns.replace(/\n/g, '\n  ')}\n    }`;
  return `kinds:
  game:
    state:
      n: number
      xs: list<number>
      ys: list<number>
      s: text
rules: |
  ${rules.trim().replace(/\n/g, '\n  ')}
  action rest "Rest" { }
  flow {
    ${flow}
  }
`;
};
