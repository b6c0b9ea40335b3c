/** The lead role is enforced through the real CLI: `--accept-all --team-agent lead` cannot delete the tree. */
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

  it('a solo session without a team still runs it (the guard is the role, not a blanket ban)', async () => {
    const ws = workspace();
    const s = script(ws, [{ name: 'Bash', input: { command: 'rm -rf src' } }]);
    const r = await runCli(['-p', 'clean up', '--script', s, '--accept-all'], { cwd: ws, env: scrubbedEnv(ws) });
    expect(r.code).toBe(0);
    expect(existsSync(path.join(ws, 'src'))).toBe(false);
  });
});
