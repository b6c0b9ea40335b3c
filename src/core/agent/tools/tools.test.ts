import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/agent/helpers.js';
import type { CommandGuard } from '../../guard/types.js';
import { runToolCall, toolSpec } from '../tool-run.js';
import { SessionPermissionChecker } from '../permissions.js';
import type { ToolContext } from '../types.js';
import { builtinTools } from './index.js';

const tools = builtinTools();

describe('built-in tools', () => {
  let root: string;
  let cleanup: () => void;
  let ctx: ToolContext;
  let n = 0;

  const call = (name: string, input: unknown, over: Partial<ToolContext> = {}) =>
    runToolCall({ type: 'tool_use', id: `t${++n}`, name, input }, tools, { ...ctx, ...over });

  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    ctx = {
      cwd: root,
      projectRoot: root,
      role: 'solo',
      signal: new AbortController().signal,
      permissions: new SessionPermissionChecker('auto', { decide: async () => 'deny' }),
    };
    writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
  });
  afterEach(() => cleanup());

  it("takes Claude Code's field names (the model sees only those) and still runs calls written with the old ones", async () => {
    const props = (name: string) => Object.keys((toolSpec(tools.find((t) => t.name === name)!).input_schema as { properties: object }).properties);
    expect(props('Read')).toEqual(['file_path', 'offset', 'limit']);
    expect(props('Write')).toEqual(['file_path', 'content']);
    expect(props('Edit')).toEqual(['file_path', 'old_string', 'new_string', 'replace_all']);
    expect(props('BashOutput')).toEqual(['bash_id']);
    expect(props('KillShell')).toEqual(['shell_id']);
    expect(props('Bash')).toContain('description');
    expect((await call('Write', { file_path: 'new.txt', content: 'cc' })).isError).toBeFalsy();
    expect((await call('Write', { path: 'old.txt', content: 'legacy' })).isError).toBeFalsy();
    expect(readFileSync(path.join(root, 'new.txt'), 'utf8')).toBe('cc');
    expect(readFileSync(path.join(root, 'old.txt'), 'utf8')).toBe('legacy');
    expect((await call('Read', { path: 'a.txt' })).content).toMatch(/two/);
    expect((await call('Edit', { file_path: 'a.txt', old_string: 'two', new_string: '2' })).isError).toBeFalsy();
    // Both names at once is ambiguous: refused, nothing written.
    const both = await call('Write', { file_path: 'b1.txt', path: 'b2.txt', content: 'x' });
    expect(both.content).toMatch(/invalid input for Write/);
    expect(existsSync(path.join(root, 'b1.txt')) || existsSync(path.join(root, 'b2.txt'))).toBe(false);
    expect((await call('BashOutput', { id: 'shell_9' })).content).toMatch(/no background shell "shell_9"/);
  });

  it('rejects bad input with a readable tool error, never a throw', async () => {
    const r = await call('Read', { path: 42 });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/invalid input for Read: "file_path"/);
    const extra = await call('Write', { path: 'x', content: 'y', mode: 'force' });
    expect(extra.content).toMatch(/invalid input for Write/);
    expect((await call('Nope', {})).content).toMatch(/unknown tool "Nope"/);
  });

  it('Read numbers lines and pages with offset/limit', async () => {
    const all = await call('Read', { path: 'a.txt' });
    expect(all.content).toBe('     1\tone\n     2\ttwo\n     3\tthree');
    const part = await call('Read', { path: 'a.txt', offset: 2, limit: 1 });
    expect(part.content).toContain('     2\ttwo');
    expect(part.content).toBe('     2\ttwo\n[lines 2-2 of 3; continue with offset=3; Read returns at most 1 lines and 30000 characters per call]');
    expect((await call('Read', { path: 'missing.txt' })).content).toMatch(/file not found/);
    expect((await call('Read', { path: '../../etc/passwd' })).content).toMatch(/^access denied:/);
  });

  it('Write creates parent directories and refuses .thclaws/', async () => {
    const r = await call('Write', { path: 'new/dir/f.txt', content: 'hi' });
    expect(r.isError).toBeFalsy();
    expect(readFileSync(path.join(root, 'new/dir/f.txt'), 'utf8')).toBe('hi');
    const denied = await call('Write', { path: '.thclaws/settings.json', content: '{}' });
    expect(denied.content).toMatch(/^access denied: .*\.thclaws/);
    expect(existsSync(path.join(root, '.thclaws'))).toBe(false);
  });

  it('Edit replaces a unique string, refuses ambiguous ones, honours replace_all', async () => {
    writeFileSync(path.join(root, 'e.txt'), 'x = 1\ny = 1\n');
    expect((await call('Edit', { path: 'e.txt', old_string: '= 1', new_string: '= 2' })).content).toMatch(/occurs 2 times/);
    expect((await call('Edit', { path: 'e.txt', old_string: 'x = 1', new_string: 'x = $&' })).isError).toBeFalsy();
    expect(readFileSync(path.join(root, 'e.txt'), 'utf8')).toBe('x = $&\ny = 1\n');
    await call('Edit', { path: 'e.txt', old_string: '1', new_string: '9', replace_all: true });
    expect(readFileSync(path.join(root, 'e.txt'), 'utf8')).toBe('x = $&\ny = 9\n');
    expect((await call('Edit', { path: 'e.txt', old_string: 'zzz', new_string: 'q' })).content).toMatch(/not found/);
  });

  it('Bash runs in the cwd without a terminal and reports exit codes', async () => {
    const ok = await call('Bash', { command: 'pwd; test -t 0 || echo no-tty; echo err >&2' });
    expect(ok.isError).toBeFalsy();
    expect(ok.content).toContain(root);
    expect(ok.content).toContain('no-tty');
    expect(ok.content).toContain('err');
    const bad = await call('Bash', { command: 'exit 3' });
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain('[exit code 3]');
  });

  it('Bash kills the whole process group on timeout', async () => {
    const pidFile = path.join(root, 'child.pid');
    // 1 s leaves a loaded machine time to write the pid file before the timeout.
    const r = await call('Bash', { command: `sleep 30 & echo $! > ${pidFile}; wait`, timeout: 1000 }, { limits: { bashKillGraceMs: 500 } });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/timed out after 1000 ms/);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    // The grandchild `sleep` must be gone too (poll briefly: the kill is asynchronous).
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      try {
        process.kill(pid, 0);
        await new Promise((f) => setTimeout(f, 50));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  });

  it('Bash stops when the turn is aborted', async () => {
    const ac = new AbortController();
    const p = call('Bash', { command: 'sleep 30' }, { signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    const r = await p;
    expect(r.content).toMatch(/aborted by the user/);
  });

  it('the role guard refuses before anything runs and before asking', async () => {
    let asked = 0;
    const guard: CommandGuard = {
      role: 'teammate',
      checkCommand: (cmd) => (cmd.includes('git push') ? { allowed: false, reason: 'teammates may not push', advice: 'ask the lead' } : { allowed: true }),
      checkWrite: (p) => (p.endsWith('.lock') ? { allowed: false, reason: 'lock files are managed', advice: 'leave them' } : { allowed: true }),
    };
    const permissions = new SessionPermissionChecker('ask', { decide: async () => (asked++, 'allow') });
    const marker = path.join(root, 'ran');
    const r = await call('Bash', { command: `touch ${marker} && git push` }, { guard, permissions });
    expect(r.content).toBe('refused: teammates may not push — ask the lead');
    expect(existsSync(marker)).toBe(false);
    const w = await call('Write', { path: 'x.lock', content: '' }, { guard, permissions });
    expect(w.content).toBe('refused: lock files are managed — leave them');
    expect(asked).toBe(0);
    expect((await call('Write', { path: 'ok.txt', content: '' }, { guard, permissions })).isError).toBeFalsy();
    expect(asked).toBe(1);
  });

  it('a denied permission is a tool error and nothing runs', async () => {
    const permissions = new SessionPermissionChecker('ask', { decide: async () => 'deny' });
    const r = await call('Write', { path: 'denied.txt', content: 'x' }, { permissions });
    expect(r.content).toMatch(/^permission denied:/);
    expect(existsSync(path.join(root, 'denied.txt'))).toBe(false);
  });

  it('Glob lists matches and skips node_modules; refuses escaping patterns', async () => {
    mkdirSync(path.join(root, 'src/sub'), { recursive: true });
    mkdirSync(path.join(root, 'node_modules/pkg'), { recursive: true });
    writeFileSync(path.join(root, 'src/x.ts'), '');
    writeFileSync(path.join(root, 'src/sub/y.ts'), '');
    writeFileSync(path.join(root, 'node_modules/pkg/z.ts'), '');
    expect((await call('Glob', { pattern: '**/*.ts' })).content).toBe('src/sub/y.ts\nsrc/x.ts');
    expect((await call('Glob', { pattern: '*.ts', path: 'src' })).content).toBe('x.ts');
    expect((await call('Glob', { pattern: '../**' })).content).toMatch(/may not contain/);
    expect((await call('Glob', { pattern: '*', path: '/etc' })).content).toMatch(/^access denied:/);
  });

});
