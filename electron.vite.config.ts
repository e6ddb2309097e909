// Builds the desktop app (`electron-vite build`): main process, preload and renderer into out/.
// Web mode builds the renderer alone with vite.web.config.ts.

import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import { noNodeEval } from './scripts/vite-no-node-eval.ts';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Node ESM (package.json "type": "module"), loaded by Electron as out/main/index.js.
      lib: { entry: { index: 'main/electron/main.ts' }, formats: ['es'] },
      // Dependencies stay in node_modules (electron-vite's default); named here because the native
      // addon must never be bundled: electron-builder rebuilds it for Electron and unpacks the .node.
      // playwright-core prints PDFs in web mode only (the app prints with its own Chromium): never bundled.
      rolldownOptions: { external: ['better-sqlite3', 'playwright-core'] },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload runs without Node's module loader: it must be one CommonJS file that
      // requires nothing but 'electron'. So no ESM output and no externalized dependencies (zod).
      lib: { entry: { index: 'main/electron/preload.ts' }, formats: ['cjs'] },
      rolldownOptions: { output: { entryFileNames: '[name].cjs' } },
      externalizeDeps: false,
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react(), noNodeEval()],
    build: {
      outDir: 'out/renderer',
      rolldownOptions: { input: resolve(import.meta.dirname, 'renderer', 'index.html') },
    },
  },
});
