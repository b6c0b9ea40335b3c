/**
 * The sandbox as the CLI wires it (src/cli/agent/setup.ts), as real processes: a teammate's Bash runs in its
 * role's sandbox; without the sandbox's binaries the agent warns once ("guards only"), and with
 * `sandbox: "required"` it refuses to run Bash at all.
 */
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, scrubbedEnv, tempDir } from '../agent/helpers.js';
import { sandboxWorkspace, type SandboxWorkspace } from './team-workspace.js';

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e.x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e.x' };

function script(dir: string, command: string): string {
  const file = path.join(dir, `script-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify({ rules: [{ turns: [{ text: 'running', tool_calls: [{ name: 'Bash', input: { command } }] }, { text: 'done' }] }] }));
  return file;
}

/** The tool results of the newest session under `root`. */
function toolResults(root: string): string[] {
  const dir = path.join(root, '.thclaws/sessions');
  const newest = readdirSync(dir).sort().pop() as string;
  const out: string[] = [];
  for (const line of readFileSync(path.join(dir, newest), 'utf8').split('\n').filter(Boolean)) {
    const rec = JSON.parse(line) as { type: string; message?: { content?: unknown } };
    if (rec.type !== 'message' || !Array.isArray(rec.message?.content)) continue;
    for (const b of rec.message.content as Array<{ type: string; content?: string }>) if (b.type === 'tool_result') out.push(b.content ?? '');
  }
  return out;
}

describe.skipIf(process.env.THCLAWS_SKIP_SANDBOX_TESTS === '1')('sandbox wiring in the CLI', () => {
  let ws: SandboxWorkspace;
  let home: { dir: string; cleanup(): void };
  beforeAll(async () => {
    await ensureBuilt();
    ws = sandboxWorkspace();
    home = tempDir('thclaws-home-');
  }, 120_000);
  afterAll(() => {
    ws.cleanup();
    home.cleanup();
  });

  it("a teammate's Bash cannot write into another worktree, and the model is told why", async () => {
    const before = ws.snapshot(ws.bob);
    // Through a script the guard does not read (it refuses the inline interpreter write itself): the sandbox stops it.
    const s = script(home.dir, `printf '%s' "require('fs').writeFileSync(process.argv[2], 'pwned')" > w.js; node w.js ../bob/bob.txt; rm w.js; echo x > own.txt && git add own.txt && git commit -qm own && echo committed`);
    const r = await runCli(['--team-agent', 'alice', '--script', s, '-p', 'go', '--accept-all'], {
      cwd: ws.alice,
      env: scrubbedEnv(home.dir, { ...GIT_ENV, THCLAWS_PROJECT_ROOT: ws.ws }),
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/guards only/);
    const [result] = toolResults(ws.ws);
    expect(result).toMatch(/EROFS/);
    expect(result).toMatch(/\[sandbox\] write refused: .*bob\.txt — other teammates' worktrees are read-only/);
    expect(result).toMatch(/committed/);
    expect(ws.snapshot(ws.bob)).toEqual(before);
  });

  it('a cloned project cannot turn the sandbox off (only the user can)', async () => {
    const dir = tempDir('thclaws-proj-');
    try {
      const proj = path.join(dir.dir, 'p');
      mkdirSync(path.join(proj, '.thclaws'), { recursive: true });
      writeFileSync(path.join(proj, '.thclaws/settings.json'), JSON.stringify({ sandbox: 'off', sandboxExtraWrite: ['/'] }));
      const outside = path.join(dir.dir, 'outside.txt');
      const r = await runCli(['--script', script(dir.dir, `echo x > ${outside}; echo inside > in.txt && cat in.txt`), '-p', 'go', '--accept-all'], { cwd: proj, env: scrubbedEnv(home.dir), timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^thclaws: warning: project settings sandbox: "off", sandboxExtraWrite ignored — loosening the sandbox is a user setting/m);
      expect(toolResults(proj)[0]).toMatch(/\[sandbox\] write refused: .*outside\.txt/);
      expect(toolResults(proj)[0]).toMatch(/inside/);
      expect(readdirSync(dir.dir)).not.toContain('outside.txt');
    } finally {
      dir.cleanup();
    }
  });

  describe('where the sandbox cannot run', () => {
    let bin: string;
    let dir: { dir: string; cleanup(): void };
    beforeAll(() => {
      dir = tempDir('thclaws-nosbx-');
      // A PATH without bubblewrap, socat and ripgrep.
      bin = path.join(dir.dir, 'bin');
      mkdirSync(bin);
      symlinkSync('/usr/bin/git', path.join(bin, 'git'));
      symlinkSync(process.execPath, path.join(bin, 'node'));
    });
    afterAll(() => dir.cleanup());

    it('warns once at start ("guards only") and still runs Bash', async () => {
      const proj = path.join(dir.dir, 'p1');
      mkdirSync(proj);
      const r = await runCli(['--script', script(dir.dir, 'echo ran-unsandboxed'), '-p', 'go', '--accept-all'], { cwd: proj, env: { ...scrubbedEnv(home.dir), PATH: bin } });
      expect(r.code, r.stderr).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => /guards only/.test(l));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^thclaws: warning: sandbox: unavailable, guards only — bubblewrap, socat, ripgrep not installed\. Fix: apt-get install -y bubblewrap socat ripgrep/);
      expect(toolResults(proj)[0]).toBe('ran-unsandboxed\n[exit code 0]');
    });

    it('with sandbox: "required" Bash is refused with the reason', async () => {
      const proj = path.join(dir.dir, 'p2');
      mkdirSync(path.join(proj, '.thclaws'), { recursive: true });
      writeFileSync(path.join(proj, '.thclaws/settings.json'), JSON.stringify({ sandbox: 'required' }));
      const r = await runCli(['--script', script(dir.dir, 'echo x > should-not-exist'), '-p', 'go', '--accept-all'], { cwd: proj, env: { ...scrubbedEnv(home.dir), PATH: bin } });
      expect(r.stderr).toMatch(/Bash is disabled \(setting sandbox: "required"\)/);
      expect(toolResults(proj)[0]).toMatch(/^refused: Bash is disabled: the setting sandbox is "required" and sandbox: unavailable, guards only/);
      expect(readdirSync(proj)).not.toContain('should-not-exist');
    });

    it('bubblewrap present but user namespaces refused (nested container): the real probe falls back, one warning', async () => {
      const fake = path.join(dir.dir, 'fakebin');
      mkdirSync(fake);
      writeFileSync(path.join(fake, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n', { mode: 0o755 });
      for (const b of ['socat', 'rg', 'git', 'which']) symlinkSync(`/usr/bin/${b}`, path.join(fake, b));
      const proj = path.join(dir.dir, 'p4');
      mkdirSync(proj);
      const r = await runCli(['--script', script(dir.dir, 'echo ran-after-probe'), '-p', 'go', '--accept-all'], { cwd: proj, env: { ...scrubbedEnv(home.dir), PATH: fake } });
      expect(r.code, r.stderr).toBe(0);
      const warnings = r.stderr.split('\n').filter((l) => /guards only/.test(l));
      expect(warnings, r.stderr).toEqual([expect.stringMatching(/^thclaws: warning: sandbox: unavailable, guards only — a sandboxed test command failed \(bwrap: setting up uid map: Permission denied\)\. Fix: /)]);
      expect(toolResults(proj)[0]).toBe('ran-after-probe\n[exit code 0]');
    });

    it('a bad sandbox setting is one clear error naming its key', async () => {
      const proj = path.join(dir.dir, 'p3');
      mkdirSync(path.join(proj, '.thclaws'), { recursive: true });
      writeFileSync(path.join(proj, '.thclaws/settings.json'), JSON.stringify({ sandbox: 'sometimes' }));
      const r = await runCli(['-p', 'go', '--provider', 'scripted'], { cwd: proj, env: scrubbedEnv(home.dir) });
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toMatch(/^thclaws: invalid settings: key "sandbox": /);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });
  });
});
