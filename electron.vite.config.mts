import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const r = (p: string) => path.join(import.meta.dirname, p);
// electron-vite 6.0.0 knows build targets up to Electron 44 (Node 24.18, Chrome 152); Electron 45 ships newer
// ones, so these lower bounds are safe for it (without them the build would get no target at all).
const NODE_TARGET = 'node24.18';
const CHROME_TARGET = 'chrome152';

/** `electron-vite build`: out/main (ESM), out/preload/index.cjs (CJS: a sandboxed preload cannot be ESM), out/renderer. */
export default defineConfig({
  main: {
    build: {
      target: NODE_TARGET,
      outDir: r('out/main'),
      rollupOptions: { input: { index: r('src/main/electron/main.ts') }, external: ['@lydell/node-pty', 'electron'] },
    },
  },
  preload: {
    build: {
      target: NODE_TARGET,
      outDir: r('out/preload'),
      // Bundle zod and the contract into the preload: a sandboxed preload can only require('electron').
      externalizeDeps: false,
      rollupOptions: { input: { index: r('src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: r('src/renderer'),
    plugins: [react()],
    build: { target: CHROME_TARGET, outDir: r('out/renderer'), rollupOptions: { input: r('src/renderer/index.html') }, chunkSizeWarningLimit: 2000 },
  },
});
