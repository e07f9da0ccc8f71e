import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../compiler/index.ts';
import { checkCards, draftTexts, prepareTexts, type TextContext, type TextFinding, type TextReport } from '../compiler/text/index.ts';
import { applyImport, exchangeOf, ExchangeError, parseExchange, toPo, toXliff, type TextPlace } from '../compiler/text/exchange.ts';
import { UsageError, type Io } from './io.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { diagnosticFile, packFoldersOf, packLabel, renderDiagnostic, type PackOnDisk } from './packs.ts';
import { plural } from './check.ts';

export interface TextOptions {
  lang?: string[];
  json?: boolean;
  draft?: string;
  out?: string;
  export?: string;
  import?: string;
}

/**
 * `rulebook text PACK…`: every card's text in every language the pack declares, read against the
 * card's rules; prints each claim that differs. `--draft LANG` prints (or writes) every card
 * rendered from its rules in that language instead.
 */
export function text(paths: string[], options: TextOptions, io: Io): number {
  if (options.export) return exportTexts(paths, options, io);
  if (options.import) return importTexts(paths, options.import, io);
  const dirs = packFoldersOf(paths);
  if (options.draft && dirs.length !== 1) throw new UsageError('--draft renders one pack: give one pack folder');
  const results = dirs.map(preparePack);

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

function preparePack(dir: string): { disk: PackOnDisk; ctx?: TextContext } {
  const files = readPackFolder(dir);
  const dependencies = dependenciesOf(dir, files) ?? {};
  const analysis = analyze(files, { dependencies, lower: false });
  const disk: PackOnDisk = { dir, files, dependencies, result: analysis };
  return { disk, ctx: prepareTexts(analysis, { dependencies }) };
}

function onePack(paths: string[], what: string): string {
  const dirs = packFoldersOf(paths);
  if (dirs.length !== 1) throw new UsageError(`${what} works on one pack: give one pack folder`);
  return dirs[0];
}

/** `rulebook text --export po|xliff LANG PACK`: every card's text for a translator's tool. */
function exportTexts(paths: string[], options: TextOptions, io: Io): number {
  const format = options.export;
  if (format !== 'po' && format !== 'xliff') throw new UsageError(`--export takes \`po\` or \`xliff\`, not \`${format}\``);
  const args = [...paths];
  const lang = options.lang?.length === 1 ? options.lang[0] : args.length === 2 ? args.shift()! : undefined;
  if (!lang) throw new UsageError('--export needs the language to translate into: rulebook text --export po de content/my-pack');
  const { disk, ctx } = preparePack(onePack(args, '--export'));
  if (!ctx) return compileErrors(disk, io);
  const exchange = exchangeOf(ctx, lang, new Set(disk.files.map((f) => f.path)));
  const content = format === 'po' ? toPo(exchange) : toXliff(exchange);
  if (options.out) {
    writeFileSync(options.out, content);
    io.out(`wrote ${plural(exchange.entries.length, 'card text')} (${exchange.sourceLang} → ${lang}) to ${options.out}\n`);
  } else io.out(content);
  return 0;
}

/** `rulebook text --import FILE PACK`: a translated PO or XLIFF file written into the cards' YAML, then checked. */
function importTexts(paths: string[], file: string, io: Io): number {
  const dir = onePack(paths, '--import');
  let imported;
  try {
    imported = parseExchange(readFileSync(file, 'utf8'));
  } catch (e) {
    if (e instanceof ExchangeError) throw new UsageError(`${file}: ${e.message}`);
    throw e;
  }
  const lang = imported.lang;
  if (!lang) throw new UsageError(`${file} does not say its language: a PO file needs a \`Language:\` header, an XLIFF file a target language`);
  const { disk, ctx } = preparePack(dir);
  if (!ctx) return compileErrors(disk, io);
  const own = new Map(disk.files.map((f) => [f.path, f.text]));
  const places = new Map<string, TextPlace>();
  for (const c of ctx.cards) if (own.has(c.entity.file.path)) places.set(c.entity.id, { file: c.entity.file.path, path: c.entity.path, current: c.entity.text[lang] });
  const result = applyImport(imported, lang, places, (f) => own.get(f)!);
  for (const id of result.unknown) io.err(`${file}: \`${id}\` is no card of ${packLabel(disk)}; its text is left out\n`);
  for (const [f, content] of result.files) writeFileSync(join(dir, f), content);
  io.out(`${file}: ${plural(imported.texts.size, `${lang} text`)} read, ${plural(result.changed.length, 'card')} changed in ${plural(result.files.size, 'file')}\n`);
  if (!ctx.analysis.declared!.manifest.languages.includes(lang)) io.out(`note: ${packLabel(disk)} does not declare \`${lang}\` in its pack.yaml \`languages:\`; add it so \`rulebook text\` and \`npm test\` check these texts\n`);
  return text([dir], { lang: [lang] }, io);
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
