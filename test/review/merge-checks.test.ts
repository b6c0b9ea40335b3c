/**
 * A merge check that never finishes on its own — killed by its timeout, or by a signal (the OOM killer, a
 * person's kill) — exits with no code at all. The branch must not land as if the check had passed: main stays
 * where it was, the teammate's file is not in the lead's checkout, and the result and the CLI say "killed".
 * Likewise when the person saved a file in the lead's checkout while the checks ran: nothing lands and the
 * edit is kept. When the person only switched the checkout to another branch, the checked merge lands on the
 * branch it was checked against and the checkout is left where the person put it.
 * Real git, real bash checks, and the `thclaws team merge --checks` CLI as a real process.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { integrateAndLand } from '../../src/core/review/integrate.js';
import { TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { teamWorkspace, type Ws } from '../teams/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
const git = (cwd: string, ...a: string[]) => execFileSync('git', a, { cwd, encoding: 'utf8', stdio: 'pipe' }).trim();

/** A team whose teammate `a` committed `feature.txt` on team/a; the lead's main does not have it. */
async function teammateCommitted(settings: Record<string, unknown> = {}): Promise<{ ws: Ws; store: TeamStore; main: string }> {
  const ws = teamWorkspace(settings);
  cleanups.push(ws.cleanup);
  const store = TeamStore.forWorkspace(ws.dir);
  store.init();
  await store.config.create({ name: 't', members: [{ name: 'a', isolation: 'worktree' }] });
  const wt = ensureWorktree(ws.dir, 'a');
  fs.writeFileSync(path.join(wt, 'feature.txt'), 'from a\n');
  git(wt, 'add', '-A');
  git(wt, 'commit', '-qm', 'feature');
  return { ws, store, main: git(ws.dir, 'rev-parse', 'main') };
}

function notLanded(ws: Ws, main: string): void {
  expect(git(ws.dir, 'rev-parse', 'main')).toBe(main);
  expect(fs.existsSync(path.join(ws.dir, 'feature.txt'))).toBe(false);
  expect(git(ws.dir, 'log', '--format=%s', 'main')).not.toContain('Merge team/a');
}

describe('a merge check that is killed lands nothing', () => {
  it('killed by its timeout: main unchanged, the check reported as killed, the process group gone', async () => {
    const { ws, store, main } = await teammateCommitted();
    const pidFile = path.join(ws.home, 'check.pid');
    let out = '';
    const t0 = Date.now();
    const r = await integrateAndLand(store, ws.dir, { agents: ['a'], checks: [`echo $$ > '${pidFile}'; echo started; sleep 60`], onOutput: (s) => (out += s), checkTimeoutMs: 500 });
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(r.landed).toBe(false);
    expect(r.failed).toMatchObject({ command: expect.stringContaining('sleep 60'), code: null });
    expect(r.checks).toEqual([expect.objectContaining({ code: null })]);
    expect(out).toContain('started');
    expect(out).toContain('[exit killed]');
    notLanded(ws, main);
    const pid = Number(fs.readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  for (const signal of ['KILL', 'TERM'] as const) {
    it(`killed by SIG${signal} (the check kills itself): main unchanged, the check reported as killed`, async () => {
      const { ws, store, main } = await teammateCommitted();
      let out = '';
      const r = await integrateAndLand(store, ws.dir, { agents: ['a'], checks: ['echo fine', `echo dying; kill -${signal} $$`], onOutput: (s) => (out += s) });
      expect(r.landed).toBe(false);
      expect(r.head).toBeNull();
      expect(r.checks.map((c) => c.code)).toEqual([0, null]);
      expect(r.failed).toMatchObject({ command: `echo dying; kill -${signal} $$`, code: null });
      expect(out).toContain('dying');
      notLanded(ws, main);
      // The same branch with a check that passes does land: the refusal above came from the kill.
      const ok = await integrateAndLand(store, ws.dir, { agents: ['a'], checks: ['echo fine'] });
      expect(ok.landed).toBe(true);
      expect(fs.readFileSync(path.join(ws.dir, 'feature.txt'), 'utf8')).toBe('from a\n');
    });
  }

  it('`thclaws team merge --checks` with a check killed by a signal exits 1, says it was killed, lands nothing', async () => {
    const { ws, main } = await teammateCommitted({ checks: ['echo dying; kill -KILL $$'] });
    // Where the OS sandbox cannot run (guards only), the check is the shell itself, so its death has no exit code;
    // inside the sandbox its wrapper reports one of its own. Only the person's settings may turn it off.
    const userSettings = path.join(ws.home, '.config', 'thclaws', 'settings.json');
    fs.mkdirSync(path.dirname(userSettings), { recursive: true });
    const had = fs.existsSync(userSettings) ? JSON.parse(fs.readFileSync(userSettings, 'utf8')) : {};
    fs.writeFileSync(userSettings, JSON.stringify({ ...had, sandbox: 'off' }));
    const r = await runCli(['team', 'merge', 'a', '--checks', '--dir', ws.dir], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect(r.stderr).toContain('checks run without the OS sandbox');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('dying');
    expect(r.stdout).toContain('check failed: "echo dying; kill -KILL $$" exited killed in ');
    expect(r.stdout).toContain('nothing landed');
    notLanded(ws, main);
  }, 60_000);
});

describe("the lead's checkout changed while the checks ran", () => {
  it("lands nothing, names the changed file, and keeps the person's edit", async () => {
    const { ws, store, main } = await teammateCommitted();
    const go = path.join(ws.home, 'go');
    // The check waits (bounded) until the person has saved a file in the lead's checkout, as in a long check.
    const check = `echo started; for i in $(seq 1 600); do [ -e '${go}' ] && break; sleep 0.05; done; echo checked`;
    let out = '';
    const r = await integrateAndLand(store, ws.dir, {
      agents: ['a'],
      checks: [check],
      onOutput: (s) => {
        out += s;
        // The check's own line, not the `$ echo started; …` line that announces it.
        if (s.split('\n').includes('started')) {
          fs.writeFileSync(path.join(ws.dir, 'notes for later.txt'), 'my edit\n');
          fs.writeFileSync(go, '');
        }
      },
    });
    expect(out).toContain('checked');
    expect(r.checks.map((c) => c.code)).toEqual([0]);
    expect(r.landed).toBe(false);
    expect(r.refusals).toEqual([{ reason: `the lead's checkout changed while the checks ran: "notes for later.txt"`, files: ['notes for later.txt'] }]);
    notLanded(ws, main);
    expect(fs.readFileSync(path.join(ws.dir, 'notes for later.txt'), 'utf8')).toBe('my edit\n');
  });
});

describe('the lead switched branches while the checks ran', () => {
  it('the checked merge lands on main all the same; the checkout stays on the branch the person chose', async () => {
    const { ws, store, main } = await teammateCommitted();
    const go = path.join(ws.home, 'go');
    const check = `echo started; for i in $(seq 1 600); do [ -e '${go}' ] && break; sleep 0.05; done; echo checked`;
    const r = await integrateAndLand(store, ws.dir, {
      agents: ['a'],
      checks: [check],
      onOutput: (s) => {
        if (!s.split('\n').includes('started')) return;
        git(ws.dir, 'checkout', '-q', '-b', 'spike');
        fs.writeFileSync(go, '');
      },
    });
    expect(r.refusals).toEqual([]);
    expect(r.landed).toBe(true);
    expect(git(ws.dir, 'rev-parse', 'main')).toBe(r.head);
    expect(git(ws.dir, 'rev-parse', `${r.head}^1`)).toBe(main);
    expect(git(ws.dir, 'show', 'main:feature.txt')).toBe('from a');
    expect(git(ws.dir, 'branch', '--show-current')).toBe('spike');
    expect(git(ws.dir, 'rev-parse', 'HEAD')).toBe(main);
    expect(fs.existsSync(path.join(ws.dir, 'feature.txt'))).toBe(false);
  });
});
