import { check, type Checked } from './check.ts';
import { declare, outline, type Declared } from './declare.ts';
import { DeclareMemo } from './declareMemo.ts';
import type { Diagnostic, DiagnosticInput } from './diagnostic.ts';
import { loadPack, type LoadedPack } from './load.ts';
import { CheckMemo } from './incremental.ts';
import { lower } from './lower.ts';
import { logPlurals } from './text/plurals.ts';
import { LRUCache } from 'lru-cache';
import { checkCycles, checkVersions, neededPacks, requirementsOf, type Requirement } from './requirements.ts';
import { readPresentation, type Presentation } from './presentation.ts';
import { checkSchemas } from './schema.ts';
import { lineIndexOf, type SourceFile } from './source.ts';
import { buildSymbols, emptySymbolIndex, type SymbolIndex } from './symbols.ts';
import type { CompiledPack } from '../runtime/compiled.ts';

export type { Diagnostic } from './diagnostic.ts';
export { formatDiagnostic } from './diagnostic.ts';
export type { SourceFile } from './source.ts';
export type { SymbolIndex } from './symbols.ts';
export type { CompiledPack } from '../runtime/compiled.ts';

export interface CompileResult {
  diagnostics: Diagnostic[];
  /** Present only when there is no error: a rule that does not check never reaches the runtime. */
  pack?: CompiledPack;
}

export interface CompileOptions {
  /** Packs this one extends or depends on, by id: their files, relative to their own folder. */
  dependencies?: Record<string, SourceFile[]>;
}

/**
 * The whole compiler: load → schema-check → declare (parse) → check → lower. Every stage runs
 * as far as it can and reports everything it finds; bad content never throws out of here.
 */
export function compile(files: SourceFile[], options: CompileOptions = {}): CompileResult {
  const { diagnostics, pack } = analyze(files, { ...options, lower: true });
  return { diagnostics, pack };
}

/**
 * The incremental way to compile: a session remembers what checking each card found and, on the
 * next compile of the same pack, checks again only the cards whose inputs changed
 * (compiler/incremental.ts). The results are those of `compile` and `analyze` on the same files.
 * One session per pack being edited; its memory is a few compiles' worth.
 */
export class CompileSession {
  private readonly memo: SessionMemo = { check: new CheckMemo(), declare: new DeclareMemo(outline) };

  compile(files: SourceFile[], options: CompileOptions = {}): CompileResult {
    const { diagnostics, pack } = this.analyze(files, { ...options, lower: true });
    return { diagnostics, pack };
  }

  analyze(files: SourceFile[], options: CompileOptions & { lower?: boolean; symbols?: boolean } = {}): Analysis {
    return analyze(files, options, this.memo);
  }
}

/** What a compile session keeps from one compile for the next: what declaring and checking found. */
export interface SessionMemo {
  check: CheckMemo;
  declare: DeclareMemo;
}

/** A pack at every stage, for tools that read its rules (the card text checker, editors). */
export interface Analysis extends CompileResult {
  /** Every YAML file, parsed with positions (the pack's own and, prefixed `base-id:`, its base's). */
  loaded?: LoadedPack;
  declared?: Declared;
  /** Present when the pack got through the checker (it may still have errors). */
  checked?: Checked;
  /** How the playground draws the pack's things (compiler/presentation.ts). */
  presentation?: Presentation;
  /** With `symbols: true`: every name the pack declares, where, its uses and hovers, and each file's outline; for editors. */
  symbols?: SymbolIndex;
}

/**
 * The same stages as `compile`, keeping what each produced. `lower: false` skips the lowering (no
 * runnable pack) for tools that only read the checked rules; `symbols: true` adds the pack's
 * symbol index, for editors.
 */
export function analyze(files: SourceFile[], options: CompileOptions & { lower?: boolean; symbols?: boolean } = {}, memo?: SessionMemo): Analysis {
  const texts = new Map(files.map((f) => [f.path, f.text]));
  const found: DiagnosticInput[] = [];
  const report = (d: DiagnosticInput) => found.push(d);
  let pack: CompiledPack | undefined;
  let loaded: LoadedPack | undefined;
  let declared: Declared | undefined;
  let checked: Checked | undefined;
  let presentation: Presentation | undefined;
  try {
    loaded = loadPack(withBase(files, options, report), report);
    checkSchemas(loaded, report);
    declared = declare(loaded, report, memo?.declare);
    checked = check(declared, report, memo?.check);
    const [read, readDeclared] = [loaded, declared];
    presentation = memo ? memo.declare.presentation(report, (to) => readPresentation(read, readDeclared, to)) : readPresentation(loaded, declared, report);
    if (options.lower !== false && !found.some((d) => (d.severity ?? 'error') === 'error')) pack = runnable(checked, loaded);
  } catch (err) {
    report(crashed(err, files));
    pack = undefined;
  }
  const diagnostics = found.map((d) => locate(d, texts, options));
  diagnostics.sort(byPlace);
  const symbols = options.symbols ? symbolsOf({ loaded, declared, checked }) : undefined;
  return { diagnostics, pack: diagnostics.some((d) => d.severity === 'error') ? undefined : pack, loaded, declared, checked, presentation, symbols };
}

/**
 * The runnable pack of an analysis made with `lower: false`, with the diagnostics `analyze` would
 * have given with the lowering: an editor shows the diagnostics before it lowers.
 */
export function lowerAnalysis(a: Analysis, files: SourceFile[], options: CompileOptions = {}): CompileResult {
  if (!a.checked || !a.loaded || a.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: a.diagnostics };
  try {
    return { diagnostics: a.diagnostics, pack: runnable(a.checked, a.loaded) };
  } catch (err) {
    const failed = locate(crashed(err, files), new Map(files.map((f) => [f.path, f.text])), options);
    return { diagnostics: [...a.diagnostics, failed].sort(byPlace) };
  }
}

function runnable(checked: Checked, loaded: LoadedPack): CompiledPack {
  const pack = lower(checked);
  pack.plurals = logPlurals(loaded);
  return pack;
}

function crashed(err: unknown, files: SourceFile[]): DiagnosticInput {
  return {
    code: 'RB9000',
    message: `the compiler failed on this pack: ${(err as Error).message}`,
    at: { file: files[0]?.path ?? 'pack.yaml', start: 0, end: 0 },
    hint: 'this is a bug in rulebook, not in your pack; please report it with the pack attached',
  };
}

const byPlace = (a: Diagnostic, b: Diagnostic) => a.file.localeCompare(b.file) || a.offset - b.offset;

/** The symbol index, or an empty one: an editor's aid never stops the compiler's answer. */
function symbolsOf(stages: Parameters<typeof buildSymbols>[0]): SymbolIndex {
  try {
    return buildSymbols(stages);
  } catch {
    return emptySymbolIndex();
  }
}

/** A pack that extends another is compiled over its base's files; the base's paths get a `base:` prefix. */
function withBase(files: SourceFile[], options: CompileOptions, report: (d: DiagnosticInput) => void): SourceFile[] {
  const manifest = files.find((f) => f.path === 'pack.yaml')?.text ?? '';
  const { needs, cyclic, found } = requirementsChecked(manifest, options);
  for (const d of found) report(d);
  const out = [...files];
  for (const need of needs) {
    if (cyclic.has(need.id)) continue;
    const dep = options.dependencies?.[need.id];
    if (!dep) {
      report({ code: 'RB0003', message: `this pack needs the pack \`${need.id}\`, which was not found`, at: { file: 'pack.yaml', start: need.start, end: need.end }, hint: `put the \`${need.id}\` pack folder beside this one, or install its package: \`npm install ${need.id}\`` });
      continue;
    }
    for (const f of dep) if (f.path !== 'pack.yaml' && !f.path.startsWith('scenarios/')) out.push({ ...f, path: `${need.id}:${f.path}` });
  }
  return out;
}

interface RequirementsChecked {
  needs: Requirement[];
  cyclic: Set<string>;
  found: DiagnosticInput[];
}

/**
 * What checking a manifest's requirements found, by the texts it reads (the manifest and those of
 * the packs given): every compile asks, and while a pack is edited they rarely change.
 */
const checkedRequirements = new LRUCache<string, RequirementsChecked>({ max: 32 });

function requirementsChecked(manifest: string, options: CompileOptions): RequirementsChecked {
  const manifestOf = (id: string) => options.dependencies?.[id]?.find((f) => f.path === 'pack.yaml')?.text;
  const deps = options.dependencies ? Object.keys(options.dependencies).sort() : [];
  const key = JSON.stringify([manifest, ...deps.map((id) => [id, manifestOf(id) ?? null])]);
  let known = checkedRequirements.get(key);
  if (!known) {
    const found: DiagnosticInput[] = [];
    const needs = requirementsOf(manifest);
    checkVersions(needs, (id) => requirementsOf(manifestOf(id) ?? '').version, (d) => found.push(d));
    const cyclic = checkCycles(needs, manifestOf, (d) => found.push(d));
    known = { needs: neededPacks(needs), cyclic, found };
    checkedRequirements.set(key, known);
  }
  return known;
}

/** A diagnostic with line and column, from the pack's files or its dependencies'. */
export function locate(d: DiagnosticInput, texts: Map<string, string>, options: CompileOptions): Diagnostic {
  let text = texts.get(d.at.file);
  if (text === undefined) {
    const [dep, ...rest] = d.at.file.split(':');
    text = options.dependencies?.[dep]?.find((f) => f.path === rest.join(':'))?.text ?? '';
  }
  const idx = lineIndexOf(text);
  const s = idx.position(d.at.start);
  const e = idx.position(d.at.end);
  return {
    code: d.code,
    severity: d.severity ?? 'error',
    message: d.message,
    file: d.at.file,
    line: s.line,
    column: s.column,
    endLine: e.line,
    endColumn: e.column,
    offset: d.at.start,
    endOffset: d.at.end,
    hint: d.hint,
    fix: d.fix,
  };
}
