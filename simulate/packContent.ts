/**
 * A pack folder as a study reads it: its files, the packs it needs, and one hash of all of them.
 * Shards of one study may be played on machines that each hold their own copy of the pack; the hash
 * is how a merge or a queue worker knows they played the same content. Node only.
 */
import { createHash } from 'node:crypto';
import { compile, type CompileOptions, type CompileResult } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import type { SourceFile } from '../compiler/source.ts';
import type { CompiledPack } from '../runtime/index.ts';

export interface PackContent {
  files: SourceFile[];
  dependencies: NonNullable<CompileOptions['dependencies']>;
  /** sha256 of every file of the pack and of the packs it needs, by path. */
  hash: string;
}

export function readPackContent(dir: string): PackContent {
  const files = readPackFolder(dir);
  const dependencies = dependenciesOf(dir, files) ?? Object.create(null);
  return { files, dependencies, hash: contentHash(files, dependencies) };
}

/**
 * The last content compiled by compileResult: a process simulates one pack after another, and the
 * runs of the same content (the CLI's check of the pack, a study's player counts, the warm threads'
 * next run) compile it once.
 */
let last: { hash: string; result: CompileResult } | undefined;

/** What compiling the content gives, diagnostics and all; compiled once for the same content as the last call. */
export function compileResult(content: PackContent): CompileResult {
  if (last?.hash !== content.hash) last = { hash: content.hash, result: compile(content.files, { dependencies: content.dependencies }) };
  return last.result;
}

/** The compiled pack of the content (compileResult), or why it does not compile. */
export function compiledPack(content: PackContent): CompiledPack {
  return packOf(compileResult(content));
}

/** The compiled pack of exactly the files that were hashed, compiled again. */
export function compileContent(content: PackContent): CompiledPack {
  return packOf(compile(content.files, { dependencies: content.dependencies }));
}

function packOf(r: CompileResult): CompiledPack {
  if (!r.pack) throw new Error(`the pack does not compile (${r.diagnostics.filter((d) => d.severity === 'error').length} errors): run \`rulebook check\` on it`);
  return r.pack;
}

function contentHash(files: SourceFile[], dependencies: Record<string, SourceFile[]>): string {
  const h = createHash('sha256');
  // Lengths before texts, so that no two different sets of files hash the same by shifting text between them.
  const add = (prefix: string, f: SourceFile) => {
    const name = `${prefix}${f.path}`;
    const text = f.refused ? `refused:${f.refused.code}` : f.text;
    h.update(`${Buffer.byteLength(name)}:${name}${Buffer.byteLength(text)}:${text}`);
  };
  const byPath = (a: SourceFile, b: SourceFile) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  for (const f of [...files].sort(byPath)) add('', f);
  for (const id of Object.keys(dependencies).sort()) for (const f of [...dependencies[id]].sort(byPath)) add(`${id}:`, f);
  return h.digest('hex');
}
