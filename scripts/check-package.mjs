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
const require = createRequire(import.meta.url);
// The stand-in carries a fuse wire as Electron's binary does (its sentinel, version 1, eight fuses in Electron's
// default states), so electron-builder's electronFuses are flipped in it and read back below.
const { SENTINEL, FuseState } = require('@electron/fuses/dist/constants.js');
const { FuseV1Options, getCurrentFuseWire } = await import('@electron/fuses');
const { ENABLE: ON, DISABLE: OFF } = FuseState;
const defaultWire = [ON, OFF, ON, ON, OFF, OFF, OFF, ON]; // RunAsNode … GrantFileProtocolExtraPrivileges
fs.writeFileSync(path.join(standIn, 'electron'), Buffer.concat([Buffer.from(`#!/bin/sh\necho stand-in electron\nexit 0\n#${SENTINEL}`), Buffer.from([1, defaultWire.length, ...defaultWire]), Buffer.from('\n')]), { mode: 0o755 });
// The stand-in carries the installed Electron's version, so the package is checked for the Electron we ship.
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
const need = ['/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json', '/bin/thclaws', '/node_modules/ws/package.json'];
const missing = need.filter((f) => !files.has(f));
const pkg = JSON.parse(extractFile(asarFile, 'package.json').toString('utf8'));
const unpackedPty = fs.existsSync(path.join(out, 'linux-unpacked', 'resources', 'app.asar.unpacked', 'node_modules', '@lydell'));
console.log(`app.asar: ${files.size} entries; missing: ${missing.length ? missing.join(', ') : 'none'}; node-pty unpacked: ${unpackedPty}; main: ${pkg.main}`);

// The fuses as the packaged binary carries them (electron-builder renames `electron` to the app's executable).
const unpacked = path.join(out, 'linux-unpacked');
const binary = fs.readdirSync(unpacked).map((f) => path.join(unpacked, f)).find((f) => fs.statSync(f).isFile() && fs.readFileSync(f).includes(SENTINEL));
const wantFuses = { RunAsNode: OFF, EnableNodeOptionsEnvironmentVariable: OFF, EnableNodeCliInspectArguments: OFF, EnableEmbeddedAsarIntegrityValidation: ON, OnlyLoadAppFromAsar: ON };
const wire = binary ? await getCurrentFuseWire(binary) : {};
const wrongFuses = Object.entries(wantFuses).filter(([name, want]) => wire[FuseV1Options[name]] !== want).map(([name, want]) => `${name} should be ${want === ON ? 'on' : 'off'}`);
console.log(`fuses of ${binary ? path.basename(binary) : '(no binary with a fuse wire)'}: ${wrongFuses.length ? wrongFuses.join(', ') : Object.entries(wantFuses).map(([n, w]) => `${n} ${w === ON ? 'on' : 'off'}`).join(', ')}`);
if (missing.length || !unpackedPty || pkg.main !== 'out/main/index.js' || !binary || wrongFuses.length) process.exit(1);
