/**
 * A real Node project for the worktree tests: package.json, its lockfile and a test that needs both
 * dependencies. They are installed from the npm registry once and kept in the scratch directory under the
 * lockfile's hash, so a rerun copies them instead of installing.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'node-project');
export const PROJECT_FILES = ['package.json', 'package-lock.json', 'test.js'];

/** The installed fixture's directory (with node_modules), installing it the first time. */
export function installedFixture(): string {
  const hash = createHash('sha256').update(fs.readFileSync(path.join(FIXTURE, 'package-lock.json'))).digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), `thclaws-node-fixture-${hash}`);
  if (fs.existsSync(path.join(dir, 'node_modules', 'ms', 'package.json'))) return dir;
  const tmp = fs.mkdtempSync(`${dir}.tmp-`);
  for (const f of PROJECT_FILES) fs.copyFileSync(path.join(FIXTURE, f), path.join(tmp, f));
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: tmp, stdio: 'pipe', timeout: 120_000 });
  try {
    fs.renameSync(tmp, dir);
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true }); // another run installed it first
  }
  return dir;
}

/** The project's files committed in `ws` (node_modules and .env ignored), its dependencies installed in the checkout. */
export function installNodeProject(ws: string): void {
  const src = installedFixture();
  for (const f of PROJECT_FILES) fs.copyFileSync(path.join(FIXTURE, f), path.join(ws, f));
  fs.writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n.env\n.env.*\n');
  execFileSync('git', ['add', '-A'], { cwd: ws });
  execFileSync('git', ['commit', '-qm', 'node project'], { cwd: ws });
  execFileSync('cp', ['-a', path.join(src, 'node_modules'), path.join(ws, 'node_modules')]);
}
