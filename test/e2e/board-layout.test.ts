/**
 * Boards a play-tester can read: every shipped game, at 1280×720 and 1600×1000, with each player
 * count its pack supports, mid-play (after some bot moves), measured in Chromium: no node's box (its
 * disc, markers, label and pieces) overlaps another's, none reaches outside the board or the window,
 * every label is whole or shortened with its full text in the tooltip, and the pieces and owners
 * the pack's presentation declares are drawn.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { usePlayground, watchErrors } from './harness.ts';
import { openPack, playToMidgame, shippedPacks, SIZES } from './midgame.ts';

const MOVES = 12;
/** A game per player count, one after another in one page: on a shared 2-core machine several minutes. */
const GAMES_TIMEOUT = 1_800_000;

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Measured {
  board: Rect;
  nodes: Array<{ id: string; box: Rect; labels: Rect[]; label: string; title: string; fontPx: number; chips: number }>;
}

function measure(page: Page): Promise<Measured> {
  return page.evaluate(() => {
    const r = (e: Element) => {
      const b = e.getBoundingClientRect();
      return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
    };
    const svg = document.querySelector('[data-testid=board]')!;
    return {
      board: r(svg),
      nodes: [...svg.querySelectorAll('g.node')].map((g) => {
        const labels = [...g.querySelectorAll('text.label')];
        return {
          id: g.getAttribute('data-entity')!,
          box: r(g),
          labels: labels.map(r),
          label: labels.map((l) => l.textContent).join(' '),
          title: g.querySelector('title')?.textContent ?? '',
          fontPx: labels.length ? labels[0].getBoundingClientRect().height : 0,
          chips: g.querySelectorAll('.chip').length,
        };
      }),
    };
  });
}

const overlap = (a: Rect, b: Rect) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
const inside = (a: Rect, outer: Rect) => a.left >= outer.left - 0.5 && a.top >= outer.top - 0.5 && a.right <= outer.right + 0.5 && a.bottom <= outer.bottom + 0.5;

describe('boards drawn from the packs’ presentation', () => {
  const pg = usePlayground();

  for (const size of SIZES) {
    it.each(shippedPacks())(`%s at ${size.width}×${size.height}: no overlap, nothing outside, for every player count`, async (key) => {
      const page = await pg.browser.newPage({ viewport: size });
      const errors = watchErrors(page);
      const counts = await openPack(page, pg.url, key);
      expect(counts.length).toBeGreaterThan(0);
      for (const players of counts) {
        await playToMidgame(page, players, MOVES);
        const m = await measure(page);
        const where = `${key}, ${players} players, ${size.width}×${size.height}`;
        expect(m.nodes.length, where).toBeGreaterThan(0);
        const window = { left: 0, top: 0, right: size.width, bottom: size.height };
        for (const [i, a] of m.nodes.entries()) {
          expect(inside(a.box, m.board), `${where}: ${a.id} reaches outside the board`).toBe(true);
          expect(inside(a.box, window), `${where}: ${a.id} reaches outside the window`).toBe(true);
          for (const l of a.labels) expect(inside(l, a.box), `${where}: ${a.id}'s label leaves its box`).toBe(true);
          for (const b of m.nodes.slice(i + 1)) expect(overlap(a.box, b.box), `${where}: ${a.id} overlaps ${b.id}`).toBe(false);
          // A shortened label keeps its whole text in the tooltip.
          if (a.label.includes('…')) expect(a.title.split('\n')[0].length, `${where}: ${a.id}`).toBeGreaterThan(a.label.length - 1);
        }
        // Mid-play, the state is on the board: pieces stand on some node.
        expect(m.nodes.some((n) => n.chips > 0), `${where}: no pieces drawn`).toBe(true);
      }
      expect(errors).toEqual([]);
      await page.close();
    }, GAMES_TIMEOUT);
  }
});
