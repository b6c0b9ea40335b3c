// Bundles the CLI: loading ~40 unbundled modules costs ~150 ms of cold start. Code splitting keeps what
// dynamic imports load on demand (the Anthropic SDK, the shell parser of the guards) out of the entry chunk.
import { build } from 'esbuild';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const finalDir = path.join(root, 'dist');
// Build beside and swap in by rename, so a process starting the CLI meanwhile never sees a half-built dist/.
const outdir = path.join(root, `dist.build-${process.pid}`);
fs.rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { cli: path.join(root, 'src/cli/main.ts') },
  outdir,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // CJS dependencies bundled into ESM still call require().
  banner: { js: "import { createRequire as __thclawsCreateRequire } from 'node:module'; const require = __thclawsCreateRequire(import.meta.url);" },
  // Native packages must stay on disk.
  external: ['@lydell/node-pty', 'electron', '@anthropic-ai/sandbox-runtime'],
  logLevel: 'warning',
  sourcemap: 'linked',
});
const old = path.join(root, `dist.old-${process.pid}`);
if (fs.existsSync(finalDir)) fs.renameSync(finalDir, old);
fs.renameSync(outdir, finalDir);
fs.rmSync(old, { recursive: true, force: true });
