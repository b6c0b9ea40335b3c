/** Test children bundled once per test process and run by plain node: no tsx loader thread in each child. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const bundles = new Map<string, string>();

/** Bundles `entry` (relative to the repository) to one ESM file in a temp dir removed at exit; cached. */
export function bundleForNode(entry: string): string {
  const cached = bundles.get(entry);
  if (cached && fs.existsSync(cached)) return cached;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-bundle-'));
  const out = path.join(dir, `${path.basename(entry, '.ts')}.mjs`);
  buildSync({
    entryPoints: [path.join(ROOT, entry)],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    nodePaths: [path.join(ROOT, 'node_modules')],
    logLevel: 'error',
  });
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  bundles.set(entry, out);
  return out;
}
