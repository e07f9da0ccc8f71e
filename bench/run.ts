/**
 * `npm run bench`: figures, not assertions. Compile time of each pack, and random playouts of the
 * default pack (games, choices and legal-choice listings per second) by seeded uniform bots.
 */
import { performance } from 'node:perf_hooks';
import { compile } from '../compiler/index.ts';
import { dependenciesOf, readPackFolder } from '../compiler/packFolder.ts';
import { apply, legalChoices, newGame, replay } from '../runtime/index.ts';
import { nextRandom } from '../runtime/rng.ts';

function time<T>(run: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = run();
  return { ms: performance.now() - t, value };
}

const packs = ['content/smallworld-wow', 'content/smallworld-wow-teams'];
for (const dir of packs) {
  const files = readPackFolder(dir);
  const deps = dependenciesOf(dir, files);
  compile(files, { dependencies: deps });
  const runs = 5;
  const { ms } = time(() => {
    for (let i = 0; i < runs; i++) compile(files, { dependencies: deps });
  });
  console.log(`compile ${dir}: ${(ms / runs).toFixed(1)} ms`);
}

const files = readPackFolder('content/smallworld-wow');
const pack = compile(files).pack!;
for (const players of [2, 5]) {
  let choices = 0;
  let listings = 0;
  const games = players === 2 ? 10 : 4;
  const { ms } = time(() => {
    for (let g = 0; g < games; g++) {
      let st = newGame(pack, { players, seed: g + 1 });
      let rng = g + 1000;
      while (!st.over && choices < 1e6) {
        const legal = legalChoices(st, { labels: false });
        listings++;
        const r = nextRandom(rng);
        rng = r.state;
        const res = apply(st, legal[Math.floor(r.value * legal.length)]);
        if (!res.ok) throw new Error(res.reason);
        st = res.state;
        choices++;
      }
    }
  });
  console.log(`random playouts, ${players} players: ${(games / (ms / 1000)).toFixed(2)} games/s, ${(choices / (ms / 1000)).toFixed(0)} choices/s (${games} games, ${choices} choices, ${listings} listings, ${(ms / 1000).toFixed(2)} s)`);
}

// The playground's two latencies, measured on the same functions its worker runs: a keystroke
// recompiles the whole default pack; an edit during a game recompiles and replays the choices.
{
  const edited = files.map((f) => (f.path === 'races/orcs.yaml' ? { ...f, text: f.text.replace('holder.coins += 1', 'holder.coins += 2') } : f));
  const runs = 5;
  const keystroke = time(() => {
    for (let i = 0; i < runs; i++) compile(edited);
  });
  console.log(`keystroke → diagnostics (compile of the default pack): ${(keystroke.ms / runs).toFixed(1)} ms`);

  let st = newGame(pack, { players: 3, seed: 11 });
  let rng = 99;
  while (!st.over && st.choices.length < 150) {
    const legal = legalChoices(st, { labels: false });
    const r = nextRandom(rng);
    rng = r.state;
    st = (apply(st, legal[Math.floor(r.value * legal.length)]) as { state: typeof st }).state;
  }
  const choices = st.choices;
  const replayed = time(() => {
    for (let i = 0; i < runs; i++) {
      const again = compile(edited).pack!;
      replay(again, { players: 3, seed: 11 }, choices);
    }
  });
  console.log(`edit → replayed game (compile + replay of ${choices.length} choices): ${(replayed.ms / runs).toFixed(1)} ms`);
}
