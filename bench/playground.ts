/**
 * `npx tsx bench/playground.ts`: figures, not assertions. In headless Chromium on the playground:
 * how long from a keystroke in a rules block to the compiler's diagnostics on screen, and from a
 * keystroke that leaves the pack valid to the game in progress (MOVES choices, default 150, played
 * by bots in every seat) replayed under the new rules.
 *
 * The keystrokes alternate: `@` breaks the rules, Backspace mends them, so the texts compiled
 * alternate between two; the worker's compile session (compiler/incremental.ts) has both in memory
 * after the first round.
 */
import { compileState, launchBrowser, startPlayground } from '../test/e2e/harness.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 20);
const MOVES = Number(process.env.MOVES ?? 150);

interface Handle {
  playground: {
    editor: { open(p: string): void; model(p: string): { getValue(): string; getPositionAt(o: number): { lineNumber: number; column: number } }; editor: { setPosition(p: { lineNumber: number; column: number }): void; focus(): void } };
    app: { played?: { version: number }; game: { toggleSeat(i: number): void }; timing: { edit: number; sent: number; received: number; shown: number; workerMs: number } };
    state(): { choices: string[] } | undefined;
  };
}

function stats(label: string, xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  console.log(`${label}: median ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, max ${s[s.length - 1].toFixed(0)} ms (${s.length} keystrokes)`);
}


const { server, url } = await startPlayground();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(url, { timeout: 180_000 });
  await compileState(page, 'ok', 60_000);

  // A game in progress, so that every good compile also replays it: bots in every seat play it
  // to MOVES choices, then the seats are handed to the designer and the game waits.
  await page.fill('[data-testid=seed]', '3');
  const seats = await page.locator('select[data-testid^=seat-]').count();
  for (let i = 0; i < seats; i++) await page.selectOption(`[data-testid=seat-${i}]`, 'bot');
  await page.click('[data-testid=start-game]');
  await page.selectOption('[data-testid=bot-speed]', 'instant');
  await page.waitForFunction((n) => {
    const st = (window as unknown as Handle).playground.state();
    return !!st && (st.choices.length >= n || (st as { over?: boolean }).over === true);
  }, MOVES, { timeout: 600_000, polling: 250 });
  await page.evaluate((n) => {
    for (let i = 0; i < n; i++) (window as unknown as Handle).playground.app.game.toggleSeat(i);
  }, seats);
  // Wait until no bot move is on its way: the number of choices holds still.
  let last = -1;
  for (;;) {
    const n = (await page.evaluate(() => (window as unknown as Handle).playground.state()?.choices.length)) ?? 0;
    if (n === last) break;
    last = n;
    await page.waitForTimeout(500);
  }
  const moves = last;

  // The cursor at the start of the first rules line of rules/conquest.yaml.
  await page.evaluate(() => {
    const ed = (window as unknown as Handle).playground.editor;
    ed.open('rules/conquest.yaml');
    const m = ed.model('rules/conquest.yaml');
    const at = m.getValue().indexOf('rules: |\n') + 'rules: |\n'.length;
    const p = m.getPositionAt(at);
    ed.editor.setPosition({ lineNumber: p.lineNumber, column: 3 });
    ed.editor.focus();
  });

  const compileMs: number[] = [];
  const waitMs: number[] = [];
  const transferMs: number[] = [];
  const drawMs: number[] = [];
  const ms = async () => {
    const t = await page.evaluate(() => (window as unknown as Handle).playground.app.timing);
    compileMs.push(t.workerMs);
    waitMs.push(t.sent - t.edit);
    transferMs.push(t.received - t.sent - t.workerMs);
    drawMs.push(t.shown - t.received);
  };
  const toDiagnostics: number[] = [];
  const toReplay: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // `@` is not part of the rules language: one keystroke breaks the pack, Backspace mends it.
    let t = performance.now();
    await page.keyboard.type('@');
    await compileState(page, 'errors', 60_000);
    toDiagnostics.push(performance.now() - t);
    await ms();

    const before = await page.evaluate(() => (window as unknown as Handle).playground.app.played?.version ?? 0);
    t = performance.now();
    await page.keyboard.press('Backspace');
    await compileState(page, 'ok', 60_000);
    toDiagnostics.push(performance.now() - t);
    await ms();
    await page.waitForFunction((v) => ((window as unknown as Handle).playground.app.played?.version ?? 0) > v, before, { timeout: 60_000, polling: 'raf' });
    toReplay.push(performance.now() - t);
  }
  // A card's text: the Orcs' "1 extra victory coin" becomes 2 (a finding), then 1 again (none).
  await page.click('[data-testid=tab-texts]');
  await page.waitForSelector('[data-testid=card-text][data-card=orcs][data-ok=true]', { timeout: 90_000 });
  await page.evaluate(() => {
    const ed = (window as unknown as Handle).playground.editor;
    ed.open('races/orcs.yaml');
    const m = ed.model('races/orcs.yaml');
    const text = m.getValue();
    const at = text.indexOf('1 extra victory coin', text.indexOf('en: "')) + 1;
    const p = m.getPositionAt(at);
    ed.editor.setPosition({ lineNumber: p.lineNumber, column: p.column });
    ed.editor.focus();
  });
  const toVerdict: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    for (const [digit, ok] of [['2', false], ['1', true]] as const) {
      await page.keyboard.press('Backspace');
      const t = performance.now();
      await page.keyboard.type(digit);
      await page.waitForSelector(`[data-testid=card-text][data-card=orcs][data-ok=${ok}]`, { timeout: 60_000 });
      toVerdict.push(performance.now() - t);
    }
  }

  stats('edit → compile asked (debounce)', waitMs);
  stats('compile in the worker', compileMs);
  stats('worker queue and messages', transferMs);
  stats('markers, lists and status drawn', drawMs);
  stats('keystroke → diagnostics on screen', toDiagnostics);
  stats(`keystroke → game replayed (${moves} moves)`, toReplay);
  stats('keystroke in a card text → its verdict on screen', toVerdict);
} finally {
  await browser.close();
  await server.close();
}
