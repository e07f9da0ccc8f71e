import type { CompiledPack } from '../runtime/compiled.ts';
import { legalChoices, standings } from '../runtime/index.ts';
import type { GameState } from '../runtime/types.ts';
import { closest } from '../compiler/suggest.ts';
import type { Entry, Failure, Plain, Where } from './format.ts';
import { nameProblem, splitKey } from './setup.ts';
import { same } from './values.ts';
import { checkEval } from './evaluate.ts';

export type Fail = (at: Where, message: string, extra?: Partial<Failure>) => void;

/** Who must act now, as a scenario writes it: a player id, `over`, or `none`. */
export function promptOf(state: GameState): string {
  return state.over ? 'over' : state.prompt?.player ?? 'none';
}

/** An entry's value as a list: one value written alone is a list of one. */
const valuesOf = (v: Plain): Plain[] => (Array.isArray(v) ? v : [v]);

/**
 * Checks `expect` entries against a state. `when` says when, for messages ("after step 2 (p1:
 * claim b)"); `logFrom` is the first log entry the `log` check looks at: a step's own entries
 * after a step, the whole log at the end.
 */
export function checkExpectations(pack: CompiledPack, state: GameState, entries: Entry[], when: string, logFrom: number, fail: Fail): void {
  for (const e of entries) {
    const mismatch = (expected: Plain, found: Plain, extra: Partial<Failure> = {}) => fail(e.keyAt, `\`${e.key}\` is wrong ${when}`, { expected, found, ...extra });
    switch (e.key) {
      case 'prompt': {
        const found = promptOf(state);
        const expected = e.value === null ? 'none' : e.value;
        if (!same(expected, found)) mismatch(expected, found, { hint: legalNow(state) });
        break;
      }
      case 'log':
      case 'notLog': {
        const entries = state.log.slice(logFrom).map((l) => l.text);
        const ofStep = logFrom ? 'of this step ' : '';
        for (const text of valuesOf(e.value).map(String)) {
          const needle = text.toLowerCase();
          const hit = entries.find((t) => t.toLowerCase().includes(needle));
          if (e.key === 'log' && hit === undefined) fail(e.keyAt, `no log entry ${ofStep}contains ${JSON.stringify(text)} ${when}`, { expected: text, found: entries.slice(-12) });
          if (e.key === 'notLog' && hit !== undefined) fail(e.keyAt, `a log entry ${ofStep}contains ${JSON.stringify(text)} ${when}`, { expected: `no entry containing ${JSON.stringify(text)}`, found: hit });
        }
        break;
      }
      case 'eval': {
        valuesOf(e.value).forEach((src, i) => checkEval(pack, state, String(src), (Array.isArray(e.value) ? e.itemsAt?.[i] : e.textAt) ?? e.valueAt, when, fail));
        break;
      }
      case 'choices':
      case 'notChoices': {
        const ids = legalChoices(state).map((c) => c.id);
        const listed = valuesOf(e.value).map(String);
        const wrong = e.key === 'choices' ? listed.filter((x) => !ids.includes(x)) : listed.filter((x) => ids.includes(x));
        if (wrong.length) {
          const guess = e.key === 'choices' && wrong.length === 1 ? closest(wrong[0], ids.filter((x) => !listed.includes(x))) : undefined;
          fail(e.keyAt, `${wrong.map((x) => `\`${x}\``).join(', ')} ${wrong.length === 1 ? 'is' : 'are'} ${e.key === 'choices' ? 'not' : 'still'} legal ${when}`, {
            expected: e.value,
            found: ids,
            hint: guess ? `did you mean \`${guess}\`?` : state.prompt ? undefined : `nobody is to act (${promptOf(state)})`,
          });
        }
        break;
      }
      case 'standings': {
        const found = standings(state).map((r) => r.player);
        if (!same(e.value, found)) mismatch(e.value, found, { hint: state.over ? undefined : 'the game is not over: these are the standings so far' });
        break;
      }
      default: {
        const named = nameProblem(pack, state, e.key, true);
        if (named) {
          fail(e.keyAt, named.message, { hint: named.hint });
          break;
        }
        const { entity, field } = splitKey(e.key)!;
        const rec = state.e[entity];
        const found = (rec && field in rec ? rec[field] : pack.entities[entity].props[field]) as Plain;
        if (!same(e.value, found)) mismatch(e.value, found, { hint: e.value === 'none' && found === null ? 'none is written `~` (or `null`) in YAML' : undefined });
      }
    }
  }
}

/** The choices open now, for a hint when the game is not where the scenario expected it. */
function legalNow(state: GameState): string {
  if (state.over) return 'the game is over';
  if (!state.prompt) return 'nobody is to act';
  const ids = legalChoices(state).map((c) => c.id);
  return `legal now for ${state.prompt.player}: ${ids.length ? `${ids.slice(0, 12).join(', ')}${ids.length > 12 ? `, … (${ids.length} in all)` : ''}` : 'nothing'}`;
}
