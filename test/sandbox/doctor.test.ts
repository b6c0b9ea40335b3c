/** `thclaws doctor` as a real process: every check present, each missing one with its fix. */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../../src/cli/doctor-command.js';
import { ensureBuilt, runCli, scrubbedEnv, tempDir } from '../agent/helpers.js';

describe('thclaws doctor', () => {
  let home: { dir: string; cleanup(): void };
  beforeAll(async () => {
    await ensureBuilt();
    home = tempDir('thclaws-doctor-');
  }, 120_000);
  afterAll(() => home.cleanup());

  it('reports sandbox, tmux, git, ripgrep, Chromium and Electron', async () => {
    const r = await runCli(['doctor', '--json'], { cwd: home.dir, env: scrubbedEnv(home.dir), timeoutMs: 60_000 });
    const checks = JSON.parse(r.stdout) as Check[];
    expect(checks.map((c) => c.name)).toEqual(['sandbox', 'tmux', 'git', 'ripgrep', 'chromium', 'electron']);
    expect(r.code).toBe(checks.every((c) => c.ok) ? 0 : 1);
    for (const c of checks) if (!c.ok) expect(c.fix, c.name).toBeTruthy();
    // CI installs these (.ci/run); the sandbox is probed for real (user namespaces included).
    for (const name of ['sandbox', 'git', 'ripgrep', 'tmux']) expect(checks.find((c) => c.name === name)?.ok, name).toBe(true);
  });

  it('names the fix for each missing piece', async () => {
    const bin = path.join(home.dir, 'bin');
    mkdirSync(bin);
    symlinkSync('/usr/bin/git', path.join(bin, 'git'));
    const r = await runCli(['doctor'], { cwd: home.dir, env: { ...scrubbedEnv(home.dir), PATH: bin }, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^MISSING {2}sandbox .*bubblewrap, socat, ripgrep not installed\n +fix: apt-get install -y bubblewrap socat ripgrep/m);
    expect(r.stdout).toMatch(/^MISSING {2}tmux .*\n +fix: apt-get install -y tmux\n +without it: teammates run as background processes/m);
    expect(r.stdout).toMatch(/^ok {7}git +git version/m);
    expect(r.stdout).toMatch(/^MISSING {2}ripgrep .*\n +fix: apt-get install -y ripgrep/m);
  });
});
