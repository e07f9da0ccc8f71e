import { writeFileSync } from 'node:fs';
import { analyze } from '../compiler/index.ts';
import { checkCards, draftTexts, prepareTexts, type TextFinding, type TextReport } from '../compiler/text/index.ts';
import { UsageError, type Io } from './io.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { diagnosticFile, packFoldersOf, packLabel, renderDiagnostic, type PackOnDisk } from './packs.ts';
import { plural } from './check.ts';

export interface TextOptions {
  lang?: string[];
  json?: boolean;
  draft?: string;
  out?: string;
}

/**
 * `rulebook text PACK…`: every card's text in every language the pack declares, read against the
 * card's rules; prints each claim that differs. `--draft LANG` prints (or writes) every card
 * rendered from its rules in that language instead.
 */
export function text(paths: string[], options: TextOptions, io: Io): number {
  const dirs = packFoldersOf(paths);
  if (options.draft && dirs.length !== 1) throw new UsageError('--draft renders one pack: give one pack folder');
  const results = dirs.map((dir) => {
    const files = readPackFolder(dir);
    const dependencies = dependenciesOf(dir, files) ?? {};
    const analysis = analyze(files, { dependencies, lower: false });
    const disk: PackOnDisk = { dir, files, dependencies, result: analysis };
    return { disk, analysis, ctx: prepareTexts(analysis, { dependencies }) };
  });

  if (options.draft) {
    const { disk, ctx } = results[0];
    if (!ctx) return compileErrors(disk, io);
    const { yaml, warnings } = draftTexts(ctx, options.draft);
    for (const w of warnings) io.err(renderDiagnostic(disk, w) + '\n\n');
    if (options.out) {
      writeFileSync(options.out, yaml);
      io.out(`wrote ${ctx.cards.length} card texts in ${options.draft} to ${options.out}\n`);
    } else io.out(yaml);
    return 0;
  }

  let errors = 0;
  let warnings = 0;
  const reports: Array<{ disk: PackOnDisk; report?: TextReport }> = [];
  for (const { disk, ctx } of results) {
    if (!ctx) {
      errors += disk.result.diagnostics.filter((d) => d.severity === 'error').length;
      reports.push({ disk });
      continue;
    }
    const report = checkCards(ctx, { langs: options.lang });
    errors += report.diagnostics.filter((d) => d.severity === 'error').length;
    warnings += report.diagnostics.filter((d) => d.severity === 'warning').length;
    reports.push({ disk, report });
  }

  if (options.json) {
    const where = (disk: PackOnDisk, f: TextFinding) => ({
      ...f,
      file: diagnosticFile(disk, f).path,
      rule: f.rule ? { ...f.rule, file: diagnosticFile(disk, { ...f, file: f.rule.file }).path } : undefined,
    });
    const packs = reports.map(({ disk, report }) => ({
      path: disk.dir,
      id: packLabel(disk),
      ok: !!report?.ok,
      languages: report?.languages ?? [],
      compileErrors: report ? undefined : disk.result.diagnostics.filter((d) => d.severity === 'error').map((d) => ({ ...d, file: diagnosticFile(disk, d).path })),
      cards: (report?.cards ?? []).map((c) => ({
        ...c,
        file: diagnosticFile(disk, { file: c.file } as TextFinding).path,
        langs: Object.fromEntries(Object.entries(c.langs).map(([l, x]) => [l, { ...x, findings: x.findings.map((f) => where(disk, f)) }])),
      })),
      diagnostics: (report?.diagnostics ?? []).map((f) => where(disk, f)),
    }));
    io.out(JSON.stringify({ ok: errors === 0, errors, warnings, packs }, null, 2) + '\n');
    return errors ? 1 : 0;
  }

  for (const { disk, report } of reports) {
    if (!report) {
      compileErrors(disk, io);
      continue;
    }
    for (const f of report.diagnostics) io.out(renderFinding(disk, f) + '\n\n');
    const cards = report.cards.length;
    const e = report.diagnostics.filter((d) => d.severity === 'error').length;
    const w = report.diagnostics.length - e;
    const bad = report.cards.filter((c) => Object.values(c.langs).some((l) => !l.ok)).length;
    io.out(
      `${packLabel(disk)} (${disk.dir}): ${plural(cards, 'card')} in ${report.languages.join(', ') || 'no language'}: ${e ? `${plural(e, 'error')} on ${plural(bad, 'card')}` : 'every text agrees with its rules'}${w ? `, ${plural(w, 'warning')}` : ''}\n`,
    );
  }
  io.out(`checked ${plural(reports.length, 'pack')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}\n`);
  return errors ? 1 : 0;
}

/** A finding as a compiler prints it, then the rule it is about and the rules' own words. */
export function renderFinding(disk: PackOnDisk, f: TextFinding): string {
  const lines = [renderDiagnostic(disk, { ...f, hint: undefined })];
  if (f.rule) lines.push(`  rule: ${diagnosticFile(disk, { ...f, file: f.rule.file }).path}:${f.rule.line}:${f.rule.column}: \`${f.rule.source.replace(/\s+/g, ' ')}\``);
  if (f.canonical) lines.push(`  from the rules (${f.lang}): “${f.canonical}”`);
  if (f.hint) lines.push(`  hint: ${f.hint}`);
  return lines.join('\n');
}

function compileErrors(disk: PackOnDisk, io: Io): number {
  const errors = disk.result.diagnostics.filter((d) => d.severity === 'error');
  for (const d of errors) io.out(renderDiagnostic(disk, d) + '\n\n');
  io.out(`${packLabel(disk)} (${disk.dir}): the pack does not compile (${plural(errors.length, 'error')}); its texts are checked once it does\n`);
  return 1;
}
