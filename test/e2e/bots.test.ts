/**
 * The playground's bots are the agents of `runtime/agents.ts`: a game of bots started in the page
 * makes the choices that `rulebook play --bots` (playByAgents) makes with the same pack and seed.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../compiler/index.ts';
import { playByAgents } from '../../runtime/agents.ts';
import { instantBots, status, watchErrors } from './harness.ts';
import { usePlayground } from './use-playground.ts';

interface PageHandle {
  playground: {
    editor: { packFiles: string[]; model(p: string): { getValue(): string } | undefined };
    state(): { choices: string[] } | undefined;
  };
}

const STEPS = 12;

describe('playground bots', () => {
  const pg = usePlayground();

  it('play the same game as the command line with the same seed', async () => {
    const context = await pg.browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(pg.url);
    expect(await status(page)).toBe('ok');
    // The pack as the page has it, not the disk, which may change while the test runs.
    const files = await page.evaluate(() => {
      const ed = (window as unknown as PageHandle).playground.editor;
      return ed.packFiles.filter((p) => !p.startsWith('scenarios/')).map((path) => ({ path, text: ed.model(path)!.getValue() }));
    });

    await page.waitForSelector('[data-testid=game-setup]');
    await page.selectOption('[data-testid=player-count]', '3');
    for (const i of [0, 1, 2]) await page.selectOption(`[data-testid=seat-${i}]`, 'bot');
    await page.fill('[data-testid=seed]', '5');
    await page.click('[data-testid=start-game]');
    await instantBots(page);
    await page.waitForFunction((n) => ((window as unknown as PageHandle).playground.state()?.choices.length ?? 0) >= n, STEPS);
    const played = (await page.evaluate(() => (window as unknown as PageHandle).playground.state()!.choices)).slice(0, STEPS);

    const pack = compile(files).pack!;
    const cli = playByAgents(pack, { players: 3, seed: 5, agents: 'random', maxSteps: STEPS });
    expect(played).toEqual(cli.state.choices);

    expect(errors).toEqual([]);
    await context.close();
  });
});
