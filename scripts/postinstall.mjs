// Runs after `npm install`. Two jobs, neither of which may fail the install:
// 1. build the bundled CLI (dist/cli.mjs) when working from a checkout;
// 2. fetch the Electron binary. Electron's own install script is disabled in package.json
//    ("allowScripts") because it fails the whole install where github.com is unreachable;
//    here we try it ourselves and print one warning on failure.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

if (existsSync(path.join(root, 'scripts/build-cli.mjs')) && existsSync(path.join(root, 'src/cli/main.ts'))) {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build-cli.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) console.warn('thclaws: warning: could not build dist/cli.mjs; run `npm run build:cli`.');
}

let installJs;
try {
  installJs = require.resolve('electron/install.js');
} catch {
  process.exit(0); // electron is a devDependency: absent in a production install.
}
if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) process.exit(0);
const r = spawnSync(process.execPath, [installJs], { stdio: 'pipe', timeout: 120_000, encoding: 'utf8' });
if (r.status !== 0) {
  const why = `${r.stderr ?? ''}`.split('\n').find((l) => /Error|ENOTFOUND|EAI_AGAIN/.test(l))?.trim() ?? 'download failed';
  console.warn(`thclaws: warning: the Electron binary could not be downloaded (${why}); the CLI and web dashboard work, \`npm start\` needs it.`);
}
