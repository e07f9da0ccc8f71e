/**
 * The plural forms a pack gives for the words of its log lines, prompts and action labels
 * (`plurals:` of each language file: `"token(s)": { one: token, other: tokens }`), handed to the
 * runtime with the compiled pack so that "1 token(s)" is logged "1 token" and "5 żeton(y)" "5
 * żetonów", by the plural categories of the language (`Intl.PluralRules`). The schema checks the
 * categories; tables are keyed by the pack's words, so they have no prototype.
 */
import type { LoadedPack } from '../load.ts';
import { table, type Table } from '../../runtime/table.ts';

const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];

export function logPlurals(pack: LoadedPack): Table<Table<Table<string>>> {
  const out = table<Table<Table<string>>>();
  for (const file of pack.files) {
    const l = (file.data as { language?: { lang?: unknown; plurals?: unknown } } | null)?.language;
    if (!l || typeof l.lang !== 'string' || !l.plurals || typeof l.plurals !== 'object' || Array.isArray(l.plurals)) continue;
    const words = (out[l.lang] ??= table<Table<string>>());
    for (const [word, raw] of Object.entries(l.plurals as Record<string, unknown>)) {
      if (!raw || typeof raw !== 'object' || Array.isArray(raw)) continue;
      const forms = table<string>();
      for (const [cat, form] of Object.entries(raw as Record<string, unknown>)) if (CATEGORIES.includes(cat) && typeof form === 'string') forms[cat] = form;
      words[word] = forms;
    }
  }
  return out;
}
