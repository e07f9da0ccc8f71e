/**
 * A compiled pack sent to another thread as plain data (runtime/transfer.ts): read back, it is the
 * pack the compiler made, tables without a prototype included, and plays the same games; a form
 * that is not a compiled pack is refused saying where, before anything links it.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { CompiledPack } from '../runtime/index.ts';
import { MalformedPackForm, packForm, packFromForm, PACK_FORM } from '../runtime/transfer.ts';
import { compileContent, readPackContent } from '../simulate/packContent.ts';
import { playGame } from '../simulate/playout.ts';
import { chunkPlayer } from '../simulate/worker.ts';

const root = join(import.meta.dirname, '..');
const packs = ['content/smallworld-wow', 'content/smallworld-wow-teams', 'content/wotlk', 'content/wroth', 'test/packs/tictactoe', 'test/packs/relay', 'test/packs/patience'];
const compiled = new Map<string, CompiledPack>();
const packOf = (dir: string) => {
  if (!compiled.has(dir)) compiled.set(dir, compileContent(readPackContent(join(root, dir))));
  return compiled.get(dir)!;
};
/** What crosses to a worker thread: the form as a structured clone, as postMessage and workerData make it. */
const sent = (pack: CompiledPack) => structuredClone(packForm(pack));
const refusal = (form: unknown) => {
  try {
    packFromForm(form);
  } catch (e) {
    expect(e).toBeInstanceOf(MalformedPackForm);
    return (e as Error).message;
  }
  throw new Error('the form was read');
};

describe('a compiled pack sent to another thread', () => {
  it.each(packs)('%s reads back as the compiled pack, its tables without a prototype', (dir) => {
    const pack = packOf(dir);
    const back = packFromForm(sent(pack));
    const { kindOf: _k, expression: _e, ...data } = pack;
    const { kindOf: _k2, ...read } = back;
    expect(read).toEqual(data);
    for (const t of [back.entities, back.kinds, back.byKind, back.rules.actions, back.rules.fns, back.rules.pipelines, ...Object.values(back.entities).map((e) => e.props)]) expect(Object.getPrototypeOf(t)).toBeNull();
    for (const id of [...Object.keys(pack.entities).slice(0, 20), 'game', 'p1', 'p9', 'nobody', '__proto__', 'constructor']) expect(back.kindOf(id)).toBe(pack.kindOf(id));
  });

  it('plays the games the compiled pack plays, seed for seed', async () => {
    for (const [dir, players] of [['content/smallworld-wow', 4], ['test/packs/tictactoe', 2]] as const) {
      const pack = packOf(dir);
      const play = chunkPlayer({ pack: sent(pack) });
      const seeds = [1, 2, 3];
      expect((await play({ players, seeds, agents: ['random'], maxSteps: 5000 })).games).toEqual(seeds.map((seed) => playGame(pack, { players, seed, agents: ['random'], maxSteps: 5000 })));
    }
  });

  it('an entity called __proto__ is an ordinary key of the tables read back', () => {
    const form = sent(packOf('test/packs/tictactoe'));
    const entity = { id: '__proto__', kind: Object.keys(form.pack.kinds)[0], name: { en: 'odd' }, text: {}, props: {} };
    Object.defineProperty(form.pack.entities, '__proto__', { value: entity, enumerable: true, configurable: true, writable: true });
    const back = packFromForm(form);
    expect(Object.keys(back.entities)).toContain('__proto__');
    expect(back.kindOf('__proto__')).toBe(entity.kind);
    expect(back.entities.toString).toBeUndefined();
  });

  it('a form that is not a compiled pack is refused with where it goes wrong', () => {
    const good = () => sent(packOf('test/packs/tictactoe'));
    expect(refusal(42)).toBe('malformed compiled pack: the form should be an object, not 42');
    expect(refusal({ format: PACK_FORM + 1, pack: good().pack })).toContain(`format ${PACK_FORM + 1}, this thread reads format ${PACK_FORM}`);
    expect(refusal({ format: PACK_FORM })).toBe('malformed compiled pack: pack should be an object, not undefined');

    const withFn = good();
    const fn = Object.keys(withFn.pack.rules.fns)[0] ?? Object.keys(withFn.pack.rules.pipelines)[0];
    expect(fn).toBeDefined();
    // Code is never read as a value: a function where data goes is refused like any other wrong thing.
    const setup = withFn.pack.rules.setups[0] ?? withFn.pack.rules.flow!;
    (setup.body.stmts as unknown[]).unshift({ op: 'log', text: { op: 'const', value: () => 'run me' } });
    expect(refusal(withFn)).toMatch(/^malformed compiled pack: pack\.rules\.(setups\[0\]|flow)\.body\.stmts\[0\]\.text\.value should be a value \(number, text, true\/false, none or a list\), not .*run me/);

    const unknownOp = good();
    (unknownOp.pack.rules.flow!.body.stmts as unknown[]).push({ op: 'eval', code: 'process.exit()' });
    expect(refusal(unknownOp)).toMatch(/^malformed compiled pack: pack\.rules\.flow\.body\.stmts\[\d+\]\.op should be an operation of the runtime, not "eval"$/);

    const unknownCall = good();
    (unknownCall.pack.rules.flow!.body.stmts as unknown[]).push({ op: 'call', name: 'nowhere', args: [] });
    expect(refusal(unknownCall)).toMatch(/^malformed compiled pack: pack\.rules\.flow\.body\.stmts\[\d+\]\.name names the proc "nowhere", which the pack does not have$/);

    const twice = good();
    const flow = twice.pack.rules.flow!.body;
    (flow.stmts as unknown[]).push({ op: 'resolving', body: { id: flow.id, stmts: [], lines: [] } });
    expect(refusal(twice)).toMatch(/\.body\.id is \d+, the number of another block$/);

    const badSlot = good();
    (badSlot.pack.rules.flow!.body.stmts as unknown[]).push({ op: 'let', slot: -3, value: { op: 'const', value: 1 } });
    expect(refusal(badSlot)).toMatch(/\.slot should be a whole number ≥ 0, not -3$/);

    const badBuiltin = good();
    (badBuiltin.pack.rules.flow!.body.stmts as unknown[]).push({ op: 'log', text: { op: 'builtin', name: 'require', args: [] } });
    expect(refusal(badBuiltin)).toMatch(/\.text\.name should be a built-in function, not "require"$/);
  });

  it('a form of the right shape whose locals, arguments or fields are out of range is refused with where', () => {
    const edited = (edit: (pack: ReturnType<typeof sent>['pack']) => void) => {
      const form = sent(packOf('test/packs/tictactoe'));
      edit(form.pack);
      return refusal(form);
    };
    const flow = (p: ReturnType<typeof sent>['pack']) => p.rules.flow!.body.stmts as unknown[];
    const mark = (p: ReturnType<typeof sent>['pack']) => p.rules.actions.mark[0];
    const one = { op: 'const' as const, value: 1 };

    expect(edited((p) => flow(p).push({ op: 'log', text: { op: 'local', slot: 1 } }))).toMatch(/^malformed compiled pack: pack\.rules\.flow\.body\.stmts\[\d+\]\.text\.slot is local 1, but its rule has 1 local$/);
    expect(edited((p) => flow(p).push({ op: 'let', slot: 7, value: one }))).toMatch(/^malformed compiled pack: pack\.rules\.flow\.body\.stmts\[\d+\]\.slot is local 7, but its rule has 1 local$/);
    expect(edited((p) => (mark(p).label = { op: 'local', slot: 4 }))).toMatch(/^malformed compiled pack: pack\.rules\.actions\.mark\[0\]\.label\.slot is local 4, but its rule has 1 local$/);
    expect(edited((p) => (mark(p).checks as unknown[]).push({ slot: 2, value: one }))).toMatch(/pack\.rules\.actions\.mark\[0\]\.checks\[1\]\.slot is local 2, but its rule has 1 local$/);
    // A score is read with no locals at all.
    expect(edited((p) => (p.rules.score = { op: 'local', slot: 0 }))).toMatch(/^malformed compiled pack: pack\.rules\.score\.slot is local 0, but its rule has 0 locals$/);
    expect(edited((p) => (p.rules.fns.holds.slots = 2 ** 40))).toMatch(/^malformed compiled pack: pack\.rules\.fns\.holds\.body has 1099511627776 locals, more than the 65536 a rule may have$/);
    expect(edited((p) => (p.rules.fns.holds.body = { op: 'fn', name: 'holds', args: [one, one, one, one, one, one, one, one, one] }))).toMatch(/pack\.rules\.fns\.holds\.body\.args gives 9 arguments to the fn "holds", which takes at most \d+$/);

    expect(edited((p) => flow(p).push({ op: 'log', text: { op: 'field', target: { op: 'const', value: 'game' }, field: '__proto__', empty: null } }))).toMatch(/\.text\.field names the field "__proto__", which no kind of the pack has$/);
    expect(edited((p) => flow(p).push({ op: 'log', text: { op: 'prop', target: { op: 'const', value: 'a1' }, field: 'winner', empty: null } }))).toMatch(/\.text\.field names the property "winner", which no kind of the pack has$/);
    expect(edited((p) => flow(p).push({ op: '=', record: { target: { op: 'const', value: 'game' }, what: 'game' }, field: 'lines', value: one }))).toMatch(/stmts\[\d+\]\.field names the field "lines", which no kind of the pack has$/);
    expect(edited((p) => flow(p).push({ op: 'shuffle', list: { record: { target: { op: 'const', value: 'game' }, what: 'game' }, field: 'deck', what: 'the deck' } }))).toMatch(/stmts\[\d+\]\.list\.field names the field "deck", which no kind of the pack has$/);
  });

  it('a worker thread given a malformed form fails each task with the reason', async () => {
    const play = chunkPlayer({ pack: { format: PACK_FORM } as never });
    await expect(play({ players: 2, seeds: [1], agents: ['random'], maxSteps: 10 })).rejects.toThrow(/^malformed compiled pack: pack should be an object/);
  });
});
