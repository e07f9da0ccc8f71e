import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readScenarioFile, runScenarios, formatResult, summarize, type ScenarioResult, type Failure } from '../scenario/index.ts';
import type { SourceFile } from '../compiler/index.ts';
import { findPacks, isDir, isPackDir, looseYamlFiles, packAt, packDirFor, packLabel, readSource, renderDiagnostic, scenarioFilesOf } from './packs.ts';
import { plural } from './check.ts';
import { UsageError, type Io } from './io.ts';

export interface TestOptions {
  json?: boolean;
  grep?: string;
}

/** Scenario files grouped by the pack folder they run against (`undefined`: no pack found). */
export function collectScenarios(paths: string[]): Map<string | undefined, SourceFile[]> {
  const groups = new Map<string | undefined, SourceFile[]>();
  const seen = new Set<string>();
  const add = (packDir: string | undefined, file: SourceFile) => {
    const key = resolve(file.path);
    if (seen.has(key)) return;
    seen.add(key);
    const dir = packDir === undefined ? undefined : [...groups.keys()].find((k) => k !== undefined && resolve(k) === resolve(packDir)) ?? packDir;
    groups.set(dir, [...(groups.get(dir) ?? []), file]);
  };
  const addFile = (path: string) => {
    const file = readSource(path);
    add(packDirFor(path, file.text), file);
  };
  for (const p of paths) {
    if (!existsSync(p)) throw new UsageError(`\`${p}\` does not exist`);
    if (!statSync(p).isDirectory()) {
      addFile(p);
      continue;
    }
    if (isPackDir(p)) {
      groups.set(p, groups.get(p) ?? []);
      for (const f of scenarioFilesOf(p)) add(p, readSource(f));
      continue;
    }
    for (const dir of findPacks(p)) {
      if (!groups.has(dir)) groups.set(dir, []);
      for (const f of scenarioFilesOf(dir)) add(dir, readSource(f));
    }
    for (const f of looseYamlFiles(p)) addFile(f);
  }
  return groups;
}

/**
 * `rulebook test PATH…`: runs scenarios — of a pack folder (its `scenarios/`), a scenario file, or
 * every pack under a folder — and ends with `N passed, N failed`. Exit 1 on any failure.
 */
export function test(paths: string[], options: TestOptions, io: Io): number {
  const results: ScenarioResult[] = [];
  const compileProblems: Array<{ pack: string; diagnostics: string[] }> = [];
  for (const [dir, files] of collectScenarios(paths)) {
    if (dir === undefined) {
      for (const f of files) results.push(...unrunnable(f, 'no pack was found for this scenario file', 'put it in a pack\'s `scenarios/` folder, or name the pack with `pack: <id>` and keep that pack folder beside one of its parent folders'));
      continue;
    }
    if (!isDir(dir)) continue;
    const onDisk = packAt(dir);
    const pack = onDisk.result.pack;
    if (!pack) {
      const errors = onDisk.result.diagnostics.filter((d) => d.severity === 'error');
      compileProblems.push({ pack: packLabel(onDisk), diagnostics: errors.map((d) => renderDiagnostic(onDisk, d)) });
      const message = `the pack \`${packLabel(onDisk)}\` (${dir}) does not compile: ${plural(errors.length, 'error')}`;
      const hint = `run \`rulebook check ${dir}\``;
      if (!files.length) results.push({ scenario: `${packLabel(onDisk)} compiles`, file: `${dir}/pack.yaml`, line: 1, column: 1, passed: false, failures: [{ at: { file: `${dir}/pack.yaml`, line: 1, column: 1, offset: 0, length: 1 }, message, hint }], steps: 0 });
      for (const f of files) results.push(...unrunnable(f, message, hint));
      continue;
    }
    results.push(...runScenarios(pack, files, { filter: options.grep }));
  }
  const { passed, failed, line } = summarize(results);
  // A test run that ran nothing proves nothing: a mistyped path or --grep must not pass.
  const none = results.length === 0;
  if (options.json) {
    io.out(JSON.stringify({ passed, failed, results, compileProblems }, null, 2) + '\n');
    return failed || none ? 1 : 0;
  }
  for (const c of compileProblems) {
    io.out(`${c.pack} does not compile:\n\n`);
    for (const d of c.diagnostics.slice(0, 20)) io.out(d + '\n\n');
    if (c.diagnostics.length > 20) io.out(`… and ${c.diagnostics.length - 20} more\n\n`);
  }
  for (const r of results) io.out(formatResult(r) + '\n');
  io.out(`\n${line}\n`);
  if (none) {
    const what = options.grep ? `no scenario whose name contains \`${options.grep}\`` : 'no scenarios';
    io.err(`rulebook test: ${what} in ${paths.join(', ')}, so nothing was tested\n  hint: scenarios are YAML files in a pack's scenarios/ folder (docs/scenarios.md); \`rulebook new pack\` and \`rulebook new card\` write a first one\n`);
    return 1;
  }
  return failed ? 1 : 0;
}

/** Every scenario of a file as failed with one reason, when the file cannot be run at all. */
function unrunnable(file: SourceFile, message: string, hint: string): ScenarioResult[] {
  const read = readScenarioFile(file);
  const scenarios = read.scenarios.length ? read.scenarios : [{ name: file.path, at: { file: file.path, line: 1, column: 1, offset: 0, length: 1 } }];
  return scenarios.map((s) => {
    const failure: Failure = { at: s.at, message, hint };
    return { scenario: s.name, file: file.path, line: s.at.line, column: s.at.column, passed: false, failures: [failure], steps: 0 };
  });
}
