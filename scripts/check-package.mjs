// Packages the app up to the unpacked app.asar with a local stand-in for the Electron distribution (the
// binary cannot be downloaded here), then checks what the asar holds. Usage: npm run dist:check (builds
// first); `npm test` runs it as check:package after its own builds. Needs no network (~10-20 s here).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const standIn = fs.mkdtempSync(path.join(os.tmpdir(), 'electron-dist-'));
fs.writeFileSync(path.join(standIn, 'electron'), '#!/bin/sh\necho stand-in electron\n', { mode: 0o755 });
// The stand-in carries the installed Electron's version, so the package is checked for the Electron we ship.
const require = createRequire(import.meta.url);
fs.writeFileSync(path.join(standIn, 'version'), require('electron/package.json').version);
const out = path.join(root, 'release');
fs.rmSync(path.join(out, 'linux-unpacked'), { recursive: true, force: true });
const bin = path.join(root, 'node_modules', '.bin');
try {
  // Quiet unless it fails: it runs inside `npm test`.
  execFileSync(path.join(bin, 'electron-builder'), ['--linux', 'dir', `-c.electronDist=${standIn}`, '-c.npmRebuild=false', '--publish', 'never'], {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
} catch (err) {
  process.stderr.write(`${err.stdout ?? ''}${err.stderr ?? ''}`);
  throw err;
} finally {
  fs.rmSync(standIn, { recursive: true, force: true });
}
const asarFile = path.join(out, 'linux-unpacked', 'resources', 'app.asar');
if (!fs.existsSync(asarFile)) throw new Error(`no ${asarFile}`);
// @electron/asar comes with electron-builder.
const { listPackage, extractFile } = await import('@electron/asar');
const files = new Set(listPackage(asarFile, { isPack: false }).map((f) => f.replaceAll('\\', '/')));
const need = ['/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json', '/bin/thclaws', '/node_modules/chokidar/package.json', '/node_modules/ws/package.json'];
const missing = need.filter((f) => !files.has(f));
const pkg = JSON.parse(extractFile(asarFile, 'package.json').toString('utf8'));
const unpackedPty = fs.existsSync(path.join(out, 'linux-unpacked', 'resources', 'app.asar.unpacked', 'node_modules', '@lydell'));
console.log(`app.asar: ${files.size} entries; missing: ${missing.length ? missing.join(', ') : 'none'}; node-pty unpacked: ${unpackedPty}; main: ${pkg.main}`);
if (missing.length || !unpackedPty || pkg.main !== 'out/main/index.js') process.exit(1);
