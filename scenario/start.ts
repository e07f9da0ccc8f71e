import type { BlockCode, CompiledPack, StmtFn } from '../runtime/compiled.ts';
import { newGame } from '../runtime/index.ts';
import type { GameState, NewGameOptions } from '../runtime/types.ts';

/**
 * A new game whose state is edited after the pack's `setup` rules and before its `flow` starts, the
 * moment a designer means by "the starting state": the flow then sees the edits (a `for round in
 * 1..game.rounds` loops over the edited number of rounds; a first `choose` offers the edited options).
 *
 * The runtime has no hook for this yet, so the edit rides on the flow's first statement: the
 * returned pack is the given one with that statement wrapped, and the scenario must go on with it.
 * The flow is the last of `pack.start` (the compiler puts every `setup`, then the `flow`). When the
 * edit could not run there (no flow, or an empty one), it runs after `newGame` instead.
 */
export function startGame(pack: CompiledPack, options: NewGameOptions, edit: (state: GameState) => void): { pack: CompiledPack; state: GameState } {
  const flow = pack.start[pack.start.length - 1];
  const first = flow?.body.stmts[0];
  if (!flow || !first) {
    const state = newGame(pack, options);
    edit(state);
    return { pack, state };
  }
  let pending = true;
  const wrappedFirst: StmtFn = (c) => {
    if (pending) {
      pending = false;
      edit(c.st);
    }
    return first(c);
  };
  const body: BlockCode = { id: flow.body.id, stmts: [wrappedFirst, ...flow.body.stmts.slice(1)] };
  const blocks = pack.blocks.slice();
  blocks[body.id] = body;
  const wrapped: CompiledPack = { ...pack, blocks, start: [...pack.start.slice(0, -1), { ...flow, body }] };
  const state = newGame(wrapped, options);
  if (pending) {
    pending = false;
    edit(state);
  }
  return { pack: wrapped, state };
}
