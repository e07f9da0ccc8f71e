/**
 * Small World's core rules as a pack, for the race against bench/handwritten/smallworldCore.ts:
 * the default pack's own files (vocabulary, boards, rules/) as they are, so the core is the rules
 * the game is played with, not a copy that could drift; its races and powers with their printed
 * numbers (tokens, faction, box, decline badge) but none of their rules; and no artifacts or
 * places (markers.yaml), whose rules are card abilities too. The card texts (language/) are left
 * out with the cards' rules they describe, and the board's presentation (presentation.yaml) with
 * the cards' fields it draws.
 */
import { parse, stringify } from 'yaml';
import { readPackFolder } from '../compiler/packFolder.ts';
import type { SourceFile } from '../compiler/index.ts';

const KEPT = { race: ['race', 'name', 'tokens', 'faction', 'box', 'pieces'], power: ['power', 'name', 'tokens', 'persistsInDecline', 'pieces'] };

export function smallWorldCoreFiles(dir = 'content/smallworld-wow'): SourceFile[] {
  const files = readPackFolder(dir);
  const cards: unknown[] = [];
  const out: SourceFile[] = [];
  for (const f of files) {
    const folder = f.path.split('/')[0];
    if (folder === 'races' || folder === 'powers') {
      for (const e of (parse(f.text) as { entities?: Array<Record<string, unknown>> }).entities ?? []) {
        const kind = folder === 'races' ? 'race' : 'power';
        if (!(kind in e)) continue;
        cards.push(Object.fromEntries(KEPT[kind].filter((k) => k in e).map((k) => [k, e[k]])));
      }
    } else if (f.path === 'pack.yaml') {
      out.push({ path: f.path, text: f.text.replace(/^id: .*$/m, 'id: smallworld-core') });
    } else if (folder !== 'markers.yaml' && folder !== 'presentation.yaml' && folder !== 'language' && folder !== 'scenarios') {
      out.push(f);
    }
  }
  out.push({ path: 'cards.yaml', text: stringify({ entities: cards }) });
  return out;
}
