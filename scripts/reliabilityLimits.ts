/**
 * The limits rulebook holds a stranger's content to, read from the constants the code enforces, for
 * docs/reliability.md (scripts/reliability.ts): the document says what the code does because the
 * figures are the code's own. Each names what passing it gives and the hostile test file that tries
 * it (`—`: none yet).
 */
import manifestSchema from '../schemas/manifest.schema.json' with { type: 'json' };
import { MAX_NESTING as MAX_RULES_NESTING } from '../compiler/declShape.ts';
import { MAX_FILE_BYTES, MAX_NESTING, MAX_PACK_BYTES, megabytes } from '../compiler/load.ts';
import { MAX_ALIAS_COUNT } from '../compiler/yamlValue.ts';
import { MAX_FILES } from '../playground/src/loadable.ts';
import { MAX_INFLATED_BYTES, MAX_LINK_CHARS } from '../playground/src/share.ts';
import { MAX_COMBINATIONS, MAX_LIST, MAX_RANGE, MAX_TEXT, STEP_BUDGET } from '../runtime/budget.ts';
import { MAX_SCENARIO_BYTES } from '../scenario/read.ts';

const n = (x: number) => x.toLocaleString('en-US');

/** The section's lines: a table of each limit, what is refused past it, and where it is tried. */
export function limitsSection(): string[] {
  const rows: Array<[what: string, limit: string, past: string, tried: string]> = [
    ['a pack file', megabytes(MAX_FILE_BYTES), 'RB0007 at its first line; the file is not read', 'sizes.test.ts'],
    ['a pack with the packs it builds on', `${megabytes(MAX_PACK_BYTES)} in all`, 'RB0007 at the first file past it', '—'],
    ['lists and mappings nested in a pack file', `${n(MAX_NESTING)} levels: a line indented past column ${n(MAX_NESTING)} (its \`- \` items counted), or ${n(MAX_NESTING)} \`[\` and \`{\` open`, 'RB0001 where it passes, before either YAML parser runs', 'sizes.test.ts'],
    ['what YAML aliases multiply', `the yaml library's \`maxAliasCount\` ${MAX_ALIAS_COUNT}`, 'RB0012 (an alias bomb)', 'sizes.test.ts'],
    ['keys of one mapping', 'none: a key written twice is found by a set per mapping, in time linear in its keys, in a pack file, its manifest, a scenario file and a zip\'s manifest', 'RB0010 at each key written again; in a scenario file a problem at each; a zip refused at the first', 'sizes.test.ts, playground.test.ts (40,000 keys)'],
    ['a list or mapping written as a key', 'none allowed: the yaml library writes such a key out as text at every level it nests (a 2 kB file ran out of memory), so it is refused before any value is read, in a pack file, a scenario file and a zip\'s manifest', 'RB0001 at the outermost; in a scenario file a problem there; a zip refused there', 'sizes.test.ts, playground.test.ts (1,000 deep)'],
    ['values and blocks nested in rules text', `${n(MAX_RULES_NESTING)} levels`, 'RB0302 at the deepest node; the declaration is set aside', 'sizes.test.ts'],
    ['a scenario file', megabytes(MAX_SCENARIO_BYTES), 'a problem at its first line; the file is not parsed', 'sizes.test.ts'],
    ['players of a pack', `${manifestSchema.properties.players.properties.max.maximum}`, "the manifest's schema refuses `players.max`", 'sizes.test.ts'],
    ['steps of one choice (or the setup, or listing the choices)', n(STEP_BUDGET), 'the choice refused, naming the budget and the statement; the state left as it was', 'budgets.test.ts'],
    ['a range `1..n`', `${n(MAX_RANGE)} numbers`, 'the choice refused, as for the steps', 'budgets.test.ts'],
    ['a list a rule makes or keeps', `${n(MAX_LIST)} values`, 'the choice refused, as for the steps', 'budgets.test.ts'],
    ['a text a rule makes', `${n(MAX_TEXT)} characters`, 'the choice refused, as for the steps', 'budgets.test.ts'],
    ["combinations of an action's parameters listed", n(MAX_COMBINATIONS), 'the listing refused, naming the action', 'budgets.test.ts'],
    ['a share link', `${n(MAX_LINK_CHARS)} characters, inflating to at most ${megabytes(MAX_INFLATED_BYTES)}`, 'the link refused, not inflated past the cap', 'playground.test.ts'],
    ['files of a pack opened in the playground', n(MAX_FILES), 'the link or zip refused', '—'],
  ];
  return ['| What | Limit | Past it | Tried in |', '| --- | --- | --- | --- |', ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`)];
}
