// Bundles the CLI into one CJS file: loading ~40 unbundled modules costs ~150 ms of cold start.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
await build({
  entryPoints: [path.join(root, 'src/cli/main.ts')],
  outfile: path.join(root, 'dist/cli.mjs'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // CJS dependencies bundled into ESM still call require().
  banner: { js: "import { createRequire as __thclawsCreateRequire } from 'node:module'; const require = __thclawsCreateRequire(import.meta.url);" },
  // Native and wasm packages must stay on disk.
  external: ['@lydell/node-pty', 'sh-syntax', 'electron'],
  logLevel: 'warning',
  sourcemap: 'linked',
});
