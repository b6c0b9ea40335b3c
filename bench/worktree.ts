/**
 * `npm run bench -- worktree`: a teammate's new worktree made ready to run tests in a project with ~1,000
 * installed packages (this repository's own package.json, lockfile and installed node_modules, copied as the
 * lead's checkout: nothing is downloaded), against a plain `npm ci --prefer-offline` in a worktree of the same
 * project in the same run; and the disk each extra worktree takes (blocks not shared with the lead's).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TeamStore } from '../src/core/store/index.js';
import { readyWorktree } from '../src/core/teams/bootstrap.js';
import { WorktreeSettingsSchema } from '../src/contract/settings-schema.js';
import { round, summarize } from './stats.js';
import type { BenchSection } from './types.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WORKTREES = 3;
const log = (s: string) => process.stderr.write(`[worktree bench] ${s}\n`);
const git = (cwd: string, ...a: string[]) => execFileSync('git', ['-c', 'user.email=b@x', '-c', 'user.name=b', ...a], { cwd, stdio: 'pipe' });
/** No Electron download from the project's postinstall (github.com is unreachable here), in either path. */
const ENV = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };

/** KiB of `dir` not shared with `lead` (du counts a hard-linked inode once, at its first path). */
function newKib(lead: string, dir: string): number {
  const out = execFileSync('du', ['-sk', lead, dir], { encoding: 'utf8' }).trim().split('\n');
  return Number(out[1]?.split('\t')[0] ?? Number.NaN);
}

/** The test runner starts from the worktree's own node_modules: ready to run tests. */
function runnerStarts(wt: string): boolean {
  const r = spawnSync(process.execPath, [path.join(wt, 'node_modules', 'vitest', 'vitest.mjs'), '--version'], { cwd: wt, encoding: 'utf8', env: ENV, timeout: 60_000 });
  return r.status === 0 && /\d+\.\d+/.test(r.stdout);
}

export async function runWorktreeBench(): Promise<BenchSection> {
  const proj = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-worktree-')));
  try {
    git(proj, 'init', '-q', '-b', 'main');
    fs.mkdirSync(path.join(proj, 'scripts'));
    for (const f of ['package.json', 'package-lock.json', 'scripts/postinstall.mjs']) fs.copyFileSync(path.join(REPO, f), path.join(proj, f));
    fs.writeFileSync(path.join(proj, '.gitignore'), 'node_modules/\n');
    git(proj, 'add', '-A');
    git(proj, 'commit', '-qm', 'project');
    // The lead's installed dependencies: this checkout's own (hard links where it can, a copy elsewhere).
    const installed = fs.realpathSync(path.join(REPO, 'node_modules'));
    const lead = path.join(proj, 'node_modules');
    if (spawnSync('cp', ['-al', installed, lead]).status !== 0) execFileSync('cp', ['-a', installed, lead]);
    const packages = JSON.parse(fs.readFileSync(path.join(proj, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const count = Object.keys(packages.packages).filter((k) => k.startsWith('node_modules/')).length;
    log(`project with ${count} packages in ${proj}`);

    const store = TeamStore.forWorkspace(proj);
    store.init();
    const names = [...Array.from({ length: WORKTREES }, (_, i) => `t${i}`), 'plain'];
    await store.config.create({ name: 'bench', members: names.map((name) => ({ name, isolation: 'worktree' as const })) });
    const settings = WorktreeSettingsSchema.parse({});

    const ready: number[] = [];
    const disk: number[] = [];
    let how = '';
    for (const name of names.slice(0, WORKTREES)) {
      const t0 = performance.now();
      const wt = await readyWorktree({ store, name, root: proj, settings, env: {} });
      ready.push(performance.now() - t0);
      if (!runnerStarts(wt)) throw new Error(`the test runner does not start in ${wt}`);
      disk.push(newKib(lead, wt));
      how ||= /cloned from the lead's checkout \(([^,]+),/.exec(store.outputs.tail(name, 20))?.[1] ?? '?';
      log(`${name}: ready in ${Math.round(ready.at(-1)!)} ms, ${disk.at(-1)} KiB of its own (${how})`);
    }

    // The same project's worktree without the bootstrap, installed the usual way from the warm npm cache.
    const plain = path.join(proj, '.worktrees', 'plain');
    git(proj, 'worktree', 'add', '-q', '-b', 'team/plain', plain);
    const t0 = performance.now();
    const ci = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: plain, env: ENV, encoding: 'utf8', timeout: 15 * 60_000 });
    const ciMs = performance.now() - t0;
    if (ci.status !== 0) throw new Error(`npm ci failed: ${(ci.stderr || ci.stdout).trim().split('\n').slice(-3).join(' / ')}`);
    if (!runnerStarts(plain)) throw new Error('the test runner does not start after npm ci');
    const ciDisk = newKib(lead, plain);
    log(`plain npm ci --prefer-offline: ${Math.round(ciMs)} ms, ${ciDisk} KiB`);

    const r = summarize(ready);
    const ratio = (r.p50 / ciMs) * 100;
    const mib = (k: number) => `${round(k / 1024, 1)} MiB`;
    return {
      title: `New worktree ready to run tests (${count} packages; ${WORKTREES} worktrees)`,
      file: 'worktree',
      rows: [
        { metric: `worktree + bootstrap (node_modules reused: ${how}), p50 / max`, value: `${Math.round(r.p50)} / ${Math.round(r.max)} ms`, target: '' },
        { metric: 'plain `npm ci --prefer-offline` in a worktree, same run', value: `${Math.round(ciMs)} ms`, target: '' },
        { metric: 'bootstrap p50 / npm ci', value: `${round(ratio, 1)} %`, target: '<= 10 %' },
        { metric: 'disk of one extra worktree (blocks not shared with the lead), p50', value: mib(summarize(disk).p50), target: 'small' },
        { metric: 'disk of the npm ci worktree', value: mib(ciDisk), target: '' },
      ],
      details: { packages: count, readyMs: ready, ciMs, diskKib: disk, ciDiskKib: ciDisk, how },
    };
  } finally {
    fs.rmSync(proj, { recursive: true, force: true });
  }
}
