/**
 * Versioned packs: a pack may say which versions of the pack it extends or depends on it works
 * with (`extends: smallworld-wow@^0.1`), and which versions of the rules language
 * (`rulebook: ^0.1`). A version found outside the range is an error at the range, in pack.yaml.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { LANGUAGE_VERSION, requirementsOf } from '../compiler/requirements.ts';
import type { SourceFile } from '../compiler/source.ts';

const content = join(import.meta.dirname, '..', 'content');
const base = readPackFolder(join(content, 'smallworld-wow'));
const teams = readPackFolder(join(content, 'smallworld-wow-teams'));

/** The team variant with its manifest's `extends:` line (and any extra lines) rewritten. */
function variant(extendsLine: string, extra = ''): SourceFile[] {
  return teams.map((f) => (f.path === 'pack.yaml' ? { ...f, text: f.text.replace(/^extends: .*$/m, extendsLine) + extra } : f));
}

function diagnostics(files: SourceFile[]) {
  return compile(files, { dependencies: { 'smallworld-wow': base } }).diagnostics.filter((d) => d.file === 'pack.yaml');
}

describe('versions of the packs a pack builds on', () => {
  it('reads `id@range` in `extends` and `dependsOn`, and the language range', () => {
    const r = requirementsOf('id: x\nversion: 1.2.3\nrulebook: ^0.1\nextends: base@^1.2\ndependsOn: [maps@>=2 <3, tokens]\n');
    expect(r.version).toBe('1.2.3');
    expect(r.extends).toMatchObject({ id: 'base', range: '^1.2', how: 'extends' });
    expect(r.dependsOn.map((d) => [d.id, d.range])).toEqual([
      ['maps', '>=2 <3'],
      ['tokens', undefined],
    ]);
    expect(r.language?.range).toBe('^0.1');
  });

  it('accepts the shipped team variant, which extends smallworld-wow@^0.1', () => {
    const files = readPackFolder(join(content, 'smallworld-wow-teams'));
    expect(files.find((f) => f.path === 'pack.yaml')!.text).toMatch(/^extends: smallworld-wow@\^0\.1$/m);
    const r = compile(files, { dependencies: dependenciesOf(join(content, 'smallworld-wow-teams'), files) });
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.pack).toBeDefined();
  });

  it('RB0004: the pack found is outside the range, at the range in pack.yaml', () => {
    const files = variant('extends: smallworld-wow@^2.0');
    const [d] = diagnostics(files);
    expect(d).toMatchObject({ code: 'RB0004', severity: 'error', file: 'pack.yaml' });
    expect(d.message).toBe('this pack extends `smallworld-wow` ^2.0, but the `smallworld-wow` found is version 0.1.0');
    expect(d.hint).toContain('widen the range');
    const text = files.find((f) => f.path === 'pack.yaml')!.text;
    const line = text.split('\n').findIndex((l) => l.startsWith('extends:')) + 1;
    expect([d.line, d.column]).toEqual([line, 'extends: '.length + 1]);
  });

  it('RB0005: a range that is no range', () => {
    const [d] = diagnostics(variant('extends: smallworld-wow@soon'));
    expect(d).toMatchObject({ code: 'RB0005', message: '`soon` is not a version range' });
  });

  it('RB0006: a pack written for another version of the rules language', () => {
    const files = variant('extends: smallworld-wow').map((f) => (f.path === 'pack.yaml' ? { ...f, text: f.text.replace(/^rulebook: .*$/m, 'rulebook: ^9.0') } : f));
    const [d] = diagnostics(files);
    expect(d).toMatchObject({ code: 'RB0006' });
    expect(d.message).toBe(`this pack is written for version ^9.0 of the rules language; this compiler reads version ${LANGUAGE_VERSION}`);
  });

  it('RB0003: a pack that is not there, at its entry', () => {
    const files = variant('extends: smallworld-wow', 'dependsOn: [extra-maps@^1]\n');
    const [d] = diagnostics(files);
    expect(d).toMatchObject({ code: 'RB0003', message: 'this pack needs the pack `extra-maps`, which was not found' });
    expect(d.column).toBe('dependsOn: ['.length + 1);
  });
});
