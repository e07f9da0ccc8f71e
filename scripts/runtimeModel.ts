/**
 * A model-based property of the runtime, through its public surface only (newGame, legalChoices,
 * apply, replay): on any pack, any mix of legal choices and illegal or tampered ones keeps these
 * promises. A legal choice is taken; an illegal one is refused with a reason and leaves the state
 * byte for byte as it was; replaying the choices taken so far, from any point, gives the live state.
 */
import fc from 'fast-check';
import { apply, legalChoices, newGame, replay, type CompiledPack, type GameState } from '../runtime/index.ts';

export interface ModelStats {
  sequences: number;
  steps: number;
  refused: number;
}

type Command = { legal: true; pick: number } | { legal: false; tamper: number; pick: number; noise: string };

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ legal: fc.constant(true as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ legal: fc.constant(false as const), tamper: fc.nat({ max: 7 }), pick: fc.nat(), noise: fc.string({ maxLength: 12 }) }) },
);

/** A choice id no player may take now, made from a legal one or from nothing. */
function tampered(c: Extract<Command, { legal: false }>, legal: string[], players: string[]): string {
  const some = legal.length ? legal[c.pick % legal.length] : 'pass';
  switch (c.tamper) {
    case 0:
      return `${some} ${c.noise}`;
    case 1:
      return `${some}@${players.includes('p9') ? 'nobody' : 'p9'}`;
    case 2:
      return c.noise;
    case 3:
      return ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'choose __proto__', 'skip'][c.pick % 6];
    case 4:
      return some.replace(/\d+/, (n) => String(Number(n) + 1000));
    case 5:
      return `${some.split(' ')[0]} ${'x'.repeat(10_000)}`;
    case 6:
      return `${some}@${players[(c.pick + 1) % players.length]}`;
    default:
      return some.split(' ').reverse().join(' ');
  }
}

/** Runs the property on one pack; throws fast-check's counterexample when a promise is broken. */
export function checkRuntimeModel(pack: CompiledPack, o: { runs: number; seed: number; maxCommands?: number }): ModelStats {
  const stats: ModelStats = { sequences: 0, steps: 0, refused: 0 };
  const players = fc.integer({ min: pack.players.min, max: Math.min(pack.players.max, pack.players.min + 3) });
  fc.assert(
    fc.property(players, fc.integer(), fc.array(command, { maxLength: o.maxCommands ?? 30 }), fc.nat(), (n, seed, commands, cut) => {
      stats.sequences++;
      const options = { players: n, seed };
      let state: GameState = newGame(pack, options);
      const taken: string[] = [];
      const seen: string[] = [JSON.stringify(state)];
      for (const c of commands) {
        const legal = legalChoices(state, { labels: false }).map((x) => x.id);
        if (c.legal) {
          if (!legal.length) break;
          const id = legal[c.pick % legal.length];
          const r = apply(state, id);
          if (!r.ok) throw new Error(`the legal choice \`${id}\` was refused: ${r.reason}`);
          state = r.state;
          taken.push(id);
          seen.push(JSON.stringify(state));
          stats.steps++;
          continue;
        }
        const id = tampered(c, legal, state.players);
        if (legal.includes(id)) continue;
        const before = seen[seen.length - 1];
        const r = apply(state, id);
        stats.refused++;
        if (r.ok) throw new Error(`\`${id.slice(0, 80)}\`, not among the legal choices, was taken`);
        if (typeof r.reason !== 'string' || !r.reason) throw new Error(`\`${id.slice(0, 80)}\` was refused without a reason`);
        if (JSON.stringify(state) !== before || JSON.stringify(r.state) !== before) throw new Error(`refusing \`${id.slice(0, 80)}\` changed the state`);
      }
      const prefix = cut % (taken.length + 1);
      const again = replay(pack, options, taken.slice(0, prefix));
      if (again.stoppedAt) throw new Error(`replay stopped at step ${again.stoppedAt.step}: ${again.stoppedAt.reason}`);
      if (JSON.stringify(again.state) !== seen[prefix]) throw new Error(`replaying the first ${prefix} choices does not give the state they gave live`);
      return true;
    }),
    { numRuns: o.runs, seed: o.seed },
  );
  return stats;
}
