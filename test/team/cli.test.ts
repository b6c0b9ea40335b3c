import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ensureBuilt } from '../agent/helpers.js';
import { ROOT, tempDir } from './helpers.js';

const BIN = path.join(ROOT, 'bin/thclaws');
let ws: string;

/** Runs the real `thclaws` process (the bundle, rebuilt first when src/ is newer). */
function thclaws(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: ws } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const team = (...args: string[]) => thclaws('team', ...args, '--dir', ws);
const json = (...args: string[]) => {
  const r = team(...args, '--json');
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
};

beforeAll(async () => {
  // Run alone (one file at a time), a stale bundle would test yesterday's code.
  await ensureBuilt();
  ws = tempDir('thclaws-cli-');
}, 120_000);
afterAll(() => fs.rmSync(ws, { recursive: true, force: true }));

describe('thclaws team (real process)', () => {
  it('drives a team end to end', () => {
    expect(json('create', 'demo', '--members', 'alice,bob').members).toHaveLength(2);
    expect(json('send', 'alice', 'please build the parser')[0]).toMatchObject({ from: 'user', to: 'alice', read: false });
    expect(json('send', '*', 'standup', '--from', 'bob').map((m: { to: string }) => m.to).sort()).toEqual(['alice', 'lead']);
    const unread = json('inbox', 'alice', '--mark-read');
    expect(unread.map((m: { text: string }) => m.text)).toEqual(['please build the parser', 'standup']);
    expect(json('inbox', 'alice')).toEqual([]);
    expect(json('inbox', 'alice', '--all')).toHaveLength(2);

    expect(json('task', 'add', '--subject', 'parser', '--description', 'write it').id).toBe('1');
    expect(json('task', 'add', '--subject', 'tests', '--blocked-by', '1', '--owner', 'bob')).toMatchObject({ id: '2', reserved_for: 'bob', blocked_by: ['1'] });
    expect(json('task', 'claim', '1', '--as', 'alice')).toMatchObject({ status: 'in_progress', owner: 'alice' });
    expect(json('task', 'complete', '1', '--as', 'alice', '--summary', 'done')).toMatchObject({ status: 'completed', result: 'done' });
    expect(team('task', 'claim', '2', '--as', 'user').err).toBe('thclaws: task 2 is reserved for bob\n');
    expect(json('tasks', '--status', 'completed').map((t: { id: string }) => t.id)).toEqual(['1']);
    // The table's NOTE column: '-' for a task with nothing to note (no commit, no refusal, not landed).
    const rows = team('tasks').out.trimEnd().split('\n');
    expect(rows[0]).toMatch(/\bNOTE$/);
    expect(rows.slice(1).map((r) => r.trimEnd().split(/\s+/).at(-1))).toEqual(['-', '-']);

    const status = json('status');
    expect(status.members.map((m: { name: string; state: string }) => `${m.name}:${m.state}`)).toEqual(['lead:defined', 'alice:defined', 'bob:defined']);
    expect(status.tasks).toEqual({ pending: 1, in_progress: 0, completed: 1 });
    const human = team('status');
    expect(human.out).toMatch(/MEMBER\s+ROLE\s+STATE/);
  });

  it.each([
    [['send', '../../etc/passwd', 'x'], /invalid recipient/],
    [['send', 'nobody', 'x'], /unknown recipient "nobody"; known: lead, user, alice, bob/],
    [['task', 'show', '../1'], /invalid task id/],
    [['task', 'claim', '1', '--as', 'alcie'], /unknown claimer "alcie"/],
    [['task', 'add', '--subject', 'x', '--blocked-by', '1,99'], /unknown task\(s\): 99/],
    [['tasks', '--status', 'done'], /invalid --status "done"/],
    [['inbox', 'alcie'], /unknown agent "alcie"; known: lead, user, alice, bob/],
    [['task', 'add'], /required option '--subject <text>' not specified/],
    [['create', 'again'], /already exists/],
  ])('bad input %j: one clear line on stderr, exit 2, nothing written', (args, message) => {
    const before = snapshot(ws);
    const r = team(...(args as string[]));
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(message as RegExp);
    expect(r.out).toBe('');
    expect(snapshot(ws)).toEqual(before);
  });

  it('watch prints change events as JSON lines', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, [BIN, 'team', 'watch', '--dir', ws], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve) => child.stderr.once('data', () => resolve()));
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    team('send', 'bob', 'ping');
    // No clock of its own (it gave the event 5 s, a second deadline inside the test's): the test's timeout is
    // the one deadline, and the loop ends with its test.
    let over = false;
    onTestFinished(() => void (over = true));
    while (!over && !out.includes('inbox:bob')) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    const code = await new Promise((r) => child.on('close', r));
    expect(code).toBe(0);
    const events = out.trim().split('\n').map((l) => JSON.parse(l) as { kind: string; agent?: string });
    expect(events).toContainEqual(expect.objectContaining({ kind: 'inbox', agent: 'bob' }));
  });
});

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('thclaws team with a file where a team directory should be (real process)', () => {
  it.each([
    ['tasks', ['task', 'add', '--subject', 'x']],
    ['inboxes', ['send', 'alice', 'hi']],
  ])('%s as a regular file: one line, exit 2, the file untouched', (dir, args) => {
    const own = tempDir('thclaws-cli-file-');
    try {
      const run = (...a: string[]) => spawnSync(process.execPath, [BIN, 'team', ...a, '--dir', own], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: own } });
      expect(run('create', 'demo', '--members', 'alice').status).toBe(0);
      const p = path.join(own, '.thclaws/state/team', dir);
      fs.rmSync(p, { recursive: true, force: true });
      fs.writeFileSync(p, 'not a directory');
      const r = run(...args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^thclaws: .*${dir} is not a directory[^\\n]*\\n$`));
      expect(fs.readFileSync(p, 'utf8')).toBe('not a directory');
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });
});
