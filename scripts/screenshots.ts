/**
 * `npm run screenshots [-- --moves N --out DIR]`: every shipped game mid-play in the playground,
 * photographed at 1280×720 and 1600×1000 for each player count its pack supports, saved as
 * `screenshots/<pack>-<players>p-<width>x<height>.png` (and `…-focus.png`, the board focused, at
 * 1280×720) for a person to review: can owner, pieces and markers be read from the board alone? The folder is not committed. `--pack ID` and
 * `--size 1280x720` take one pack or one size.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildPlayground, launchBrowser, previewPlayground } from '../test/e2e/harness.ts';
import type { Page } from 'playwright-core';
import { openPack, playToMidgame, settled, shippedPacks, SIZES } from '../test/e2e/midgame.ts';

const { values } = parseArgs({ options: { moves: { type: 'string', default: '40' }, out: { type: 'string', default: 'screenshots' }, pack: { type: 'string' }, size: { type: 'string' } } });
const moves = Number(values.moves);
const out = values.out!;
const sizes = SIZES.filter((z) => !values.size || values.size === `${z.width}x${z.height}`);
if (!sizes.length) {
  console.error(`--size ${values.size} is none of ${SIZES.map((z) => `${z.width}x${z.height}`).join(', ')}`);
  process.exit(2);
}
mkdirSync(out, { recursive: true });

// The playground built and served as the e2e tests have it: a page loads a few bundles, not Vite's hundreds of modules.
const built = mkdtempSync(join(tmpdir(), 'rulebook-playground-'));
await buildPlayground(built);
const { server, url } = await previewPlayground(built);
const browser = await launchBrowser();
let saved = 0;
async function shoot(page: Page, file: string) {
  await page.screenshot({ path: file });
  console.log(file);
  saved++;
}
try {
  const page = await browser.newPage({ viewport: sizes[0] });
  page.setDefaultTimeout(180_000);
  await page.goto(url);
  for (const key of shippedPacks().filter((k) => !values.pack || k.endsWith(`/${values.pack}`))) {
    await page.setViewportSize(sizes[0]);
    const counts = await openPack(page, key);
    for (const players of counts) {
      await playToMidgame(page, players, moves);
      // The same position at each size: the window resized, the board is drawn again for the space it gets.
      for (const size of sizes) {
        await page.setViewportSize(size);
        await settled(page);
        const name = `${key.split('/').pop()}-${players}p-${size.width}x${size.height}`;
        await shoot(page, join(out, `${name}.png`));
        if (size.width === 1280) {
          // Also as a play-tester at a small screen sees it with one click: the board focused.
          await page.click('[data-testid=focus-board]');
          await settled(page);
          await shoot(page, join(out, `${name}-focus.png`));
          await page.click('[data-testid=focus-board]');
          await settled(page);
        }
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(built, { recursive: true, force: true });
}
console.log(`${saved} screenshots in ${out}/`);
