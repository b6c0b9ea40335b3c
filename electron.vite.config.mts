import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const r = (p: string) => path.join(import.meta.dirname, p);

/** `electron-vite build`: out/main (ESM), out/preload/index.cjs (CJS: a sandboxed preload cannot be ESM), out/renderer. */
export default defineConfig({
  main: {
    build: {
      outDir: r('out/main'),
      rollupOptions: { input: { index: r('src/main/electron/main.ts') }, external: ['@lydell/node-pty', 'electron'] },
    },
  },
  preload: {
    build: {
      outDir: r('out/preload'),
      // Bundle zod and the contract into the preload: a sandboxed preload can only require('electron').
      externalizeDeps: false,
      rollupOptions: { input: { index: r('src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: r('src/renderer'),
    plugins: [react()],
    build: { outDir: r('out/renderer'), rollupOptions: { input: r('src/renderer/index.html') }, chunkSizeWarningLimit: 2000 },
  },
});
