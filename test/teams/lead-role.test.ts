/** The lead role is enforced through the real CLI: `--accept-all --team-agent lead` cannot delete the tree. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, scrubbedEnv, tempDir } from '../agent/helpers.js';
import { parseLines, toolResults } from './stream.js';

beforeAll(ensureBuilt, 120_000);

let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups) c();
  cleanups = [];
});

function workspace(): string {
  const t = tempDir('thclaws-lead-role-');
  cleanups.push(t.cleanup);
  mkdirSync(path.join(t.dir, 'src'));
  writeFileSync(path.join(t.dir, 'src', 'main.ts'), 'export const x = 1;\n');
  return t.dir;
}

function script(dir: string, calls: Array<{ name: string; input: Record<string, unknown> }>): string {
  const file = path.join(dir, '..', `${path.basename(dir)}-script.json`);
  writeFileSync(file, JSON.stringify({ rules: [{ turns: [{ text: 'doing it', tool_calls: calls }, { text: 'done' }] }] }));
  cleanups.push(() => existsSync(file) && writeFileSync(file, ''));
  return file;
}

describe('lead role through the real CLI', () => {
  it('--accept-all --team-agent lead refuses rm -rf src', async () => {
    const ws = workspace();
    const s = script(ws, [{ name: 'Bash', input: { command: 'rm -rf src' } }]);
    const r = await runCli(['-p', 'clean up', '--script', s, '--accept-all', '--team-agent', 'lead', '--output-format', 'stream-json'], { cwd: ws, env: scrubbedEnv(ws) });
    expect(existsSync(path.join(ws, 'src', 'main.ts'))).toBe(true);
    const results = toolResults(parseLines(r.stdout));
    expect(results).toHaveLength(1);
    expect(results[0]!.is_error).toBe(true);
    expect(results[0]!.content).toMatch(/team lead may not run/);
  });

  it('the lead may not author files with Write either', async () => {
    const ws = workspace();
    const s = script(ws, [{ name: 'Write', input: { path: 'src/main.ts', content: 'hacked' } }]);
    const r = await runCli(['-p', 'edit', '--script', s, '--accept-all', '--team-agent', 'lead', '--output-format', 'stream-json'], { cwd: ws, env: scrubbedEnv(ws) });
    const results = toolResults(parseLines(r.stdout));
    expect(results[0]?.is_error).toBe(true);
    expect(results[0]?.content).toMatch(/refused/);
  });

  it("cannot force-update a teammate's branch through git fetch (its commits would be dropped)", async () => {
    const ws = workspace();
    const g = (...a: string[]) => execFileSync('git', a, { cwd: ws, encoding: 'utf8' }).trim();
    g('init', '-q', '-b', 'main');
    g('config', 'user.email', 't@thclaws.local');
    g('config', 'user.name', 'thclaws test');
    g('add', '-A');
    g('commit', '-qm', 'init');
    g('branch', 'team/bob');
    const bobWork = g('commit-tree', '-p', 'team/bob', '-m', 'bob work', `${g('rev-parse', 'main')}^{tree}`);
    g('update-ref', 'refs/heads/team/bob', bobWork);
    const s = script(ws, [
      { name: 'Bash', input: { command: 'git fetch . +main:team/bob' } },
      { name: 'Bash', input: { command: 'git fetch --force . main:refs/heads/team/bob' } },
      { name: 'Bash', input: { command: 'git fetch . main:refs/remotes/local/main && echo tracking-ok' } },
    ]);
    const r = await runCli(['-p', 'sync', '--script', s, '--accept-all', '--team-agent', 'lead', '--output-format', 'stream-json'], { cwd: ws, env: scrubbedEnv(ws) });
    expect(g('rev-parse', 'team/bob')).toBe(bobWork);
    const results = toolResults(parseLines(r.stdout));
    expect(results).toHaveLength(3);
    expect(results[0]!.content).toMatch(/team lead may not run .*force-update or prune a shared branch \(team\/bob\)/);
    expect(results[1]!.content).toMatch(/team lead may not run .*force-update or prune a shared branch \(team\/bob\)/);
    // Fetching into a remote-tracking ref is no branch rewrite: the guard lets it through (the OS sandbox may
    // still keep .git read-only for the lead; what matters is that the guard did not refuse it).
    expect(results[2]!.content).not.toMatch(/team lead may not run/);
  });

  it('a solo session without a team still runs it (the guard is the role, not a blanket ban)', async () => {
    const ws = workspace();
    const s = script(ws, [{ name: 'Bash', input: { command: 'rm -rf src' } }]);
    const r = await runCli(['-p', 'clean up', '--script', s, '--accept-all'], { cwd: ws, env: scrubbedEnv(ws) });
    expect(r.code).toBe(0);
    expect(existsSync(path.join(ws, 'src'))).toBe(false);
  });
});
