import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { servedPacks } from './served-packs.ts';

const playground = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
// node_modules may be a link to elsewhere (a shared install); Monaco's fonts are served from it.
const modules = existsSync(`${repo}/node_modules`) ? realpathSync(`${repo}/node_modules`) : `${repo}/node_modules`;

/**
 * The playground is served from `playground/`, but it reads the packs under `content/` and runs the
 * real compiler and runtime from the repository, so the dev server may serve files from the whole repo.
 * A designer's own folder of packs (`RULEBOOK_PACKS`, set by `rulebook serve PATH`) is not among the
 * files it serves: its packs reach the page only through `served-packs.ts`, read-only and confined.
 */
export default defineConfig({
  root: playground,
  clearScreen: false,
  plugins: [servedPacks(process.env.RULEBOOK_PACKS || undefined)],
  server: {
    fs: { allow: [repo, modules] },
    // Editing content/ on disk would otherwise reload the page under the designer's edits.
    watch: { ignored: ['**/test-output/**', '**/.scratch/**'] },
  },
  worker: { format: 'es' },
  optimizeDeps: {
    // Pre-bundled together when the server starts: Monaco's parts must share one copy of its registries,
    // and the first page load must not trigger a re-optimisation reload.
    include: [
      'monaco-editor/editor',
      'monaco-editor/features/register.all',
      'monaco-editor/editor/contrib/gotoSymbol/browser/goToCommands',
      'fflate',
      'yaml',
      // Imported by the engine worker, which the start-up scan does not follow.
      'chevrotain',
      'ajv',
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Monaco is most of the bundle and loads once; splitting it buys nothing for a local tool.
    chunkSizeWarningLimit: 6000,
  },
});
