// Builds the renderer alone for web mode (served by main/web). Electron's build is electron.vite.config.ts.

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { noNodeEval } from './scripts/vite-no-node-eval.ts';

export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), noNodeEval()],
  build: {
    outDir: '../out/web',
    emptyOutDir: true,
    sourcemap: true,
  },
});
