/**
 * A tool that edits a state's entity table by hand (a record replaced, as a state editor or a
 * scenario might) attaches the state again before it is played on (`attach`, runtime/index.ts): the
 * generated code reads records by entity number from an array kept in step only with the writes the
 * runtime makes, and attaching drops it, so the array is made again from the edited table.
 */
import { describe, expect, it } from 'vitest';
import { attach, legalChoices, newGame, playoutApply, playoutChoices, type EngineName, type GameState } from '../runtime/index.ts';
import { compileOk } from './helpers/inlinePack.ts';
import { spotsBoard } from './helpers/spotsBoard.ts';

/** A walk over each spot's `near` list reads a state field of each element: read by number on the generated engine. */
const crowded = compileOk(
  spotsBoard(`action claim(s: spot) "Claim {s}" {
  require s.owner == none else "{s} is taken"
  require count(s.near where it.owner == me) < 2 else "{s} is crowded"
  s.owner = me
  game.total += count(spots where any(it.near, it.owner == me))
}
action pass "Pass" { }
flow {
  loop max 4 {
    for p in players {
      turn p { offer p: claim, pass }
    }
  }
}`),
  { min: 2, max: 2 },
);

/** Two claims played in place (the records read by number are then asked for), then two records replaced by hand. */
function editedByHand(engine: EngineName): GameState {
  const st = newGame(crowded, { players: 2, seed: 1, engine });
  playoutChoices(st);
  playoutApply(st, 0);
  playoutChoices(st);
  playoutApply(st, 0);
  st.e.s2 = { ...st.e.s2, owner: 'p1' };
  st.e.s3 = { ...st.e.s3, owner: 'p1' };
  return st;
}

const listing = (st: GameState) => legalChoices(st).map((c) => c.id);

describe('a state whose entity table was edited by hand, attached again', () => {
  it('is listed on the generated engine as the interpreter lists it', () => {
    const reference = listing(attach(crowded, editedByHand('interpreter'), 'interpreter'));
    // p1 now owns s2 and s3, both near s4: claiming s4 is crowded, so only s5 and pass are left.
    expect(reference).toEqual(['claim s5', 'pass']);
    expect(listing(attach(crowded, editedByHand('generated'), 'generated'))).toEqual(reference);
  });
});
