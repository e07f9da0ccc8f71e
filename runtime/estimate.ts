import type { CompiledPack } from './compiled.ts';
import { withStepBudget } from './budget.ts';
import { ctxFor, withFrozenState } from './engine.ts';
import { programOf } from './link.ts';
import { metaIfAny } from './stateMeta.ts';
import type { Program } from './program.ts';
import type { Choice, GameState, Value } from './types.ts';

/** Whether the pack declares `scoring: estimate`. */
export function hasEstimate(pack: CompiledPack): boolean {
  return pack.rules.estimate !== undefined;
}

/**
 * Each player's estimated final score in `state` by the pack's `scoring: estimate`, in seat order,
 * under the step budget of a choice; undefined when the pack declares none. A bot cuts its
 * look-ahead short with it, so an estimate costs what one choice may cost, not more. It runs on
 * the state's own engine (a search's games warm to generated code like any game). A rule that
 * cannot go on throws, with its reason.
 */
export function estimates(pack: CompiledPack, state: GameState): number[] | undefined {
  if (!pack.rules.estimate) return undefined;
  const prog = programIn(pack, state);
  const run = prog.estimate!;
  return withStepBudget(() =>
    withFrozenState(() =>
      state.players.map((p) => {
        const c = ctxFor(state, prog, 0, p);
        c.it = p;
        return run(c) as number;
      }),
    ),
  );
}

/**
 * How much the pack's `scoring: prefer` likes each of `choices` in `state`, in their order: for an
 * action, its entry with `me` the choice's player and its arguments as the action's parameters; for
 * an option picked in a prompt, the entry of the option's type under `choose` with `it` the option
 * (`choose none` for declining); 0 where the pack names no preference. Nothing is played: a
 * preference reads the state as it is, under the step budget of one choice for the whole list.
 * Undefined when the pack declares none.
 */
export function preferences(pack: CompiledPack, state: GameState, choices: Choice[]): number[] | undefined {
  if (!pack.rules.prefer) return undefined;
  const prog = programIn(pack, state);
  const table = prog.prefer!;
  return withStepBudget(() =>
    withFrozenState(() =>
      choices.map((choice) => {
        const key = choice.action === 'choose' ? `choose ${typeOf(pack, choice.args[0])}` : choice.action === 'skip' ? 'choose none' : choice.action;
        const entry = Object.hasOwn(table, key) ? table[key] : undefined;
        if (!entry) return 0;
        const c = ctxFor(state, prog, entry.slots, choice.player);
        if (choice.action === 'choose') c.it = choice.args[0];
        else for (let i = 0; i < entry.slots && i < choice.args.length; i++) c.env[i] = choice.args[i];
        return entry.value(c) as number;
      }),
    ),
  );
}

/** The type an option picked in a prompt is of, as `scoring: prefer` names it under `choose`. */
function typeOf(pack: CompiledPack, v: Value): string {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return 'number';
  if (typeof v !== 'string') return '';
  const kind = pack.kindOf(v);
  if (kind) return kind;
  for (const name in pack.enums) if (pack.enums[name].includes(v)) return name;
  return '';
}

/** The program `state` is played by, or the pack's. */
function programIn(pack: CompiledPack, state: GameState): Program {
  // Not `programFor`: a bot's reading is not a listing or a choice, and counting it as a warming
  // call would dilute the steps a call that pick the pack's engine.
  const attached = metaIfAny(state)?.prog;
  const played = attached?.warming?.next ?? attached;
  return played?.pack === pack ? played : programOf(pack);
}
