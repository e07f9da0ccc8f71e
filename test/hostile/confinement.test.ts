/**
 * A pack reads its own folder and the packs beside it, nothing else: ids in `extends`/`dependsOn`
 * never become paths unless they are pack ids, links leaving the pack are not followed, a link loop
 * is a diagnostic, and packs extending each other in a circle are named as a circle.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../../compiler/packFolder.ts';
import { rulebook } from '../helpers/cli.ts';
import { budget, MANIFEST, expectPositioned, tempFolder, writeFiles } from './harness.ts';

const root = tempFolder('confinement');
const SECRET = 'secret-outside-the-packs: 42';
writeFiles(root, { 'outside/secret.yaml': `${SECRET}\n`, 'outside/pack.yaml': MANIFEST('outside'), 'outside/game.yaml': 'kinds: {}\n' });
const GAME = 'kinds:\n  card:\n    props: { n: number }\n';

/** A pack folder under `root/packs/<name>`. */
function pack(name: string, files: Record<string, string>): string {
  return writeFiles(join(root, 'packs', name), files);
}

function compileDir(dir: string) {
  const files = readPackFolder(dir);
  const dependencies = dependenciesOf(dir, files) ?? {};
  const r = compile(files, { dependencies });
  const texts: Record<string, string> = Object.fromEntries(files.map((f) => [f.path, f.text]));
  for (const [id, dep] of Object.entries(dependencies)) for (const f of dep) texts[`${id}:${f.path}`] = f.text;
  return { files, dependencies, r, texts };
}

describe('files outside the pack', () => {
  for (const [how, line] of [
    ['extends', 'extends: ../../outside'],
    ['dependsOn', 'dependsOn: [../../outside, /etc]'],
  ] as const) {
    it(`\`${how}\` with a path: no folder outside is read, and the schema says why`, budget, () => {
      const dir = pack(`by-${how}`, { 'pack.yaml': MANIFEST(`by-${how}`.toLowerCase(), `${line}\n`), 'game.yaml': GAME });
      const { dependencies, r, texts } = compileDir(dir);
      expect(Object.keys(dependencies)).toEqual([]);
      const d = r.diagnostics.find((x) => x.code === 'RB0104');
      expectPositioned(d, texts);
      expect(d!.line).toBe(6);
      expect(JSON.stringify(r.diagnostics)).not.toContain('secret');
    });
  }

  it('a link to a file outside the pack is not followed: RB0008 at the link, and its text is never read', budget, async () => {
    const dir = pack('linked', { 'pack.yaml': MANIFEST('linked'), 'game.yaml': GAME });
    symlinkSync(join(root, 'outside/secret.yaml'), join(dir, 'stolen.yaml'));
    symlinkSync('/etc/passwd', join(dir, 'passwd.yaml'));
    const { files, r, texts } = compileDir(dir);
    expect(files.map((f) => f.text).join('')).not.toContain('secret');
    expect(files.map((f) => f.text).join('')).not.toContain('root:');
    const refused = r.diagnostics.filter((d) => d.code === 'RB0008');
    expect(refused.map((d) => d.file).sort()).toEqual(['passwd.yaml', 'stolen.yaml']);
    for (const d of refused) expectPositioned(d, texts);
    const cli = await rulebook(['check', dir]);
    expect(cli.code).toBe(1);
    expect(cli.out).not.toContain('root:');
    expect(cli.out).not.toContain('secret');
  });

  it('a link inside the pack is read like the file it points at', budget, () => {
    const dir = pack('inner-link', { 'pack.yaml': MANIFEST('inner-link'), 'parts/game.yaml': GAME });
    symlinkSync(join(dir, 'parts'), join(dir, 'alias'));
    const { files, r } = compileDir(dir);
    expect(files.map((f) => f.path).sort()).toEqual(['alias/game.yaml', 'pack.yaml', 'parts/game.yaml']);
    expect(r.diagnostics.some((d) => d.code === 'RB0008' || d.code === 'RB9000')).toBe(false);
  });

  it('a link loop (a folder linking to its parent, a link to itself) is a diagnostic, not ELOOP', budget, async () => {
    const dir = pack('loop', { 'pack.yaml': MANIFEST('loop'), 'sub/game.yaml': GAME });
    symlinkSync(dir, join(dir, 'sub', 'up'));
    symlinkSync(join(dir, 'self.yaml'), join(dir, 'self.yaml'));
    const { r, texts } = compileDir(dir);
    const refused = r.diagnostics.filter((d) => d.code === 'RB0008');
    expect(refused.map((d) => d.file).sort()).toEqual(['self.yaml', 'sub/up']);
    for (const d of refused) expectPositioned(d, texts);
    const cli = await rulebook(['check', dir]);
    expect(cli.out + cli.err).not.toContain('ELOOP:');
    expect(cli.out).toContain('RB0008');
  });

  it('links that multiply one folder (each level linking twice to the next, 30 deep) are walked once each', budget, () => {
    const files: Record<string, string> = { 'pack.yaml': MANIFEST('diamond'), 'd30/game.yaml': GAME };
    const dir = pack('diamond', files);
    for (let i = 0; i < 30; i++) {
      mkdirSync(join(dir, `d${i}`), { recursive: true });
      symlinkSync(join(dir, `d${i + 1}`), join(dir, `d${i}`, 'left'));
      symlinkSync(join(dir, `d${i + 1}`), join(dir, `d${i}`, 'right'));
    }
    const { files: read, r } = compileDir(dir);
    expect(read.filter((f) => !f.refused).length).toBeLessThan(10);
    expect(r.diagnostics.some((d) => d.code === 'RB0008')).toBe(true);
  });

  it('a pipe named like a pack file is not opened (reading it would wait forever)', budget, () => {
    const dir = pack('pipe', { 'pack.yaml': MANIFEST('pipe'), 'game.yaml': GAME });
    execFileSync('mkfifo', [join(dir, 'cards.yaml')]);
    const { r, texts } = compileDir(dir);
    const d = r.diagnostics.find((x) => x.code === 'RB0008');
    expectPositioned(d, texts);
    expect(d!.file).toBe('cards.yaml');
  });
});

describe('packs built on each other in a circle', () => {
  it('`a` extends `b` and `b` extends `a`: RB0009 names the circle, nothing is declared twice', budget, () => {
    pack('ring-b', { 'pack.yaml': MANIFEST('ring-b', 'extends: ring-a\n'), 'b.yaml': GAME });
    const dir = pack('ring-a', { 'pack.yaml': MANIFEST('ring-a', 'extends: ring-b\n'), 'a.yaml': 'enums:\n  colour: [red]\n' });
    const { r, texts } = compileDir(dir);
    const d = r.diagnostics.find((x) => x.code === 'RB0009');
    expectPositioned(d, texts);
    expect(d!.message).toContain('`ring-a` → `ring-b` → `ring-a`');
    expect(r.diagnostics.some((x) => x.code === 'RB0201')).toBe(false);
  });

  it('a pack that extends itself', budget, () => {
    const dir = pack('selfish', { 'pack.yaml': MANIFEST('selfish', 'extends: selfish\n'), 'game.yaml': GAME });
    const { r, texts } = compileDir(dir);
    const d = r.diagnostics.find((x) => x.code === 'RB0009');
    expectPositioned(d, texts);
    expect(d!.message).toContain('`selfish` → `selfish`');
    expect(r.diagnostics.some((x) => x.code === 'RB0201')).toBe(false);
  });

  it('an id JavaScript reserves never reaches a table of packs', budget, () => {
    const r = compile([{ path: 'pack.yaml', text: MANIFEST('test', 'extends: constructor\n') }, { path: 'game.yaml', text: GAME }], { dependencies: {} });
    expect(r.diagnostics.some((d) => d.code === 'RB9000')).toBe(false);
  });
});
