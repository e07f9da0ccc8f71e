/**
 * Presentation as content: every shipped pack presents the kinds its board is made of, an extending
 * pack builds on its base's presentation, and the board's layout (playground/src/board/layout.ts)
 * leaves no two node boxes overlapping, from a pack's coordinates or from links alone.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { GAP, place, stretch, extent, type Box } from '../playground/src/board/layout.ts';

const shipped = ['smallworld-wow', 'smallworld-wow-teams', 'wotlk', 'wroth'];

function analysed(id: string) {
  const dir = `${import.meta.dirname}/../content/${id}`;
  const files = readPackFolder(dir);
  return analyze(files, { dependencies: dependenciesOf(dir, files) });
}

describe('shipped presentations', () => {
  it.each(shipped)('%s presents its board kinds, its players panel and its pieces', (id) => {
    const r = analysed(id);
    expect(r.diagnostics).toEqual([]);
    const p = r.presentation!;
    const graphKinds = [...r.declared!.kinds.values()].filter((k) => k.graph).map((k) => k.name);
    expect(graphKinds.length).toBeGreaterThan(0);
    for (const k of graphKinds) {
      expect(Object.hasOwn(p.kinds, k), `${id}: ${k}`).toBe(true);
      // Pieces on the board, drawn from a count or from entities standing there.
      const standing = Object.values(p.kinds).some((look) => look.at);
      expect(p.kinds[k].pieces.length > 0 || standing, `${id}: ${k} shows no pieces`).toBe(true);
    }
    expect(p.kinds.player.show.length).toBeGreaterThan(0);
  });

  it('the team variant keeps the base game’s board and lists the team first', () => {
    const base = analysed('smallworld-wow').presentation!;
    const teams = analysed('smallworld-wow-teams').presentation!;
    expect(teams.kinds.region).toEqual(base.kinds.region);
    expect(teams.kinds.player.show[0]).toBe('team');
    expect(teams.kinds.player.scratch).toEqual(base.kinds.player.scratch);
    expect(teams.colours.forest).toBe(base.colours.forest);
  });
});

describe('board layout', () => {
  const overlapping = (nodes: Array<{ id: string; x: number; y: number }>, box: (id: string) => Box) => {
    const pairs: string[] = [];
    for (const [i, a] of nodes.entries()) {
      for (const b of nodes.slice(i + 1)) {
        const A = box(a.id);
        const B = box(b.id);
        const dx = Math.min(a.x + A.right, b.x + B.right) - Math.max(a.x + A.left, b.x + B.left);
        const dy = Math.min(a.y + A.bottom, b.y + B.bottom) - Math.max(a.y + A.top, b.y + B.top);
        if (dx > -GAP + 0.01 && dy > -GAP + 0.01) pairs.push(`${a.id}/${b.id}`);
      }
    }
    return pairs;
  };
  // Boxes of varied widths, as labels make them.
  const box = (id: string): Box => {
    const w = 30 + ((id.charCodeAt(1) * 37) % 90);
    return { left: -w / 2, right: w / 2, top: -17, bottom: 50 };
  };
  const ids = Array.from({ length: 30 }, (_, i) => `n${String.fromCharCode(65 + i)}`);
  const ring = (id: string) => {
    const i = ids.indexOf(id);
    return [ids[(i + 1) % ids.length], ids[(i + ids.length - 1) % ids.length], ids[(i + 7) % ids.length]];
  };

  it('pushes apart nodes a pack placed on top of each other', () => {
    const nodes = place(ids, (id) => ({ x: (ids.indexOf(id) % 5) * 3, y: Math.floor(ids.indexOf(id) / 5) * 3 }), ring, box);
    expect(overlapping(nodes, box)).toEqual([]);
  });

  it('lays out linked nodes without coordinates, the same every time, and stretching keeps them apart', () => {
    const a = place(ids, () => undefined, ring, box);
    const b = place(ids, () => undefined, ring, box);
    expect(a).toEqual(b);
    expect(overlapping(a, box)).toEqual([]);
    stretch(a, box, 2.4);
    const e = extent(a, box);
    expect(overlapping(a, box)).toEqual([]);
    expect((e.maxX - e.minX) / (e.maxY - e.minY)).toBeGreaterThan(1.2);
  });
});
