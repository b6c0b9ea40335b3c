/** The teamEnabled gate and role filtering, through the real CLI. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, scrubbedEnv } from '../agent/helpers.js';
import { TeamStore } from '../../src/core/store/index.js';
import { teamWorkspace, writeScript } from './helpers.js';

beforeAll(ensureBuilt, 120_000);
let cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const TEAM_TOOLS = ['TeamCreate', 'SpawnTeammate', 'SendMessage', 'CheckInbox', 'TeamStatus', 'TeamTaskCreate', 'TeamTaskList', 'TeamTaskClaim', 'TeamTaskComplete', 'TeamTaskUpdate', 'TeamMerge'];

function initTools(stdout: string): string[] {
  return JSON.parse(stdout.split('\n')[0]!).tools as string[];
}

describe('teamEnabled gate', () => {
  it('off: no team tools and nothing written under .thclaws/state', async () => {
    const ws = teamWorkspace({ teamEnabled: false });
    cleanups.push(ws.cleanup);
    const s = writeScript(ws, { rules: [{ turns: [{ text: 'hi' }] }] });
    const r = await runCli(['-p', 'hello', '--script', s, '--output-format', 'stream-json'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect(r.code, r.stderr).toBe(0);
    expect(initTools(r.stdout).filter((t) => TEAM_TOOLS.includes(t))).toEqual([]);
    expect(fs.existsSync(path.join(ws.dir, '.thclaws', 'state'))).toBe(false);
  });

  it('on, no team yet: lead tools (TeamCreate first), never the teammate-only ones', async () => {
    const ws = teamWorkspace({ teamEnabled: true });
    cleanups.push(ws.cleanup);
    const s = writeScript(ws, { rules: [{ turns: [{ text: 'hi' }] }] });
    const r = await runCli(['-p', 'hello', '--script', s, '--output-format', 'stream-json'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect(r.code, r.stderr).toBe(0);
    const tools = initTools(r.stdout);
    expect(tools).toEqual(expect.arrayContaining(['TeamCreate', 'SpawnTeammate', 'TeamMerge', 'TeamTaskUpdate', 'SendMessage']));
    expect(tools).not.toContain('TeamTaskClaim');
    expect(tools).not.toContain('TeamTaskComplete');
  });

  it('a teammate never gets TeamCreate, SpawnTeammate, TeamMerge or TeamTaskUpdate, and its guard is the teammate guard', async () => {
    const ws = teamWorkspace({ teamEnabled: true });
    cleanups.push(ws.cleanup);
    const store = new TeamStore(path.join(ws.dir, '.thclaws/state/team'));
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice' }] });
    const s = writeScript(ws, { rules: [{ turns: [{ text: 'try', tool_calls: [{ name: 'TeamCreate', input: { name: 'x', agents: [] } }, { name: 'Bash', input: { command: 'git push origin main --force' } }] }, { text: 'ok' }] }] });
    const r = await runCli(['-p', 'hello', '--script', s, '--accept-all', '--team-agent', 'alice', '--output-format', 'stream-json'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    const events = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const tools = events[0].tools as string[];
    for (const t of ['TeamCreate', 'SpawnTeammate', 'TeamMerge', 'TeamTaskUpdate']) expect(tools).not.toContain(t);
    expect(tools).toEqual(expect.arrayContaining(['TeamTaskClaim', 'TeamTaskComplete', 'SendMessage']));
    const results = events.filter((e) => e.type === 'user').flatMap((e) => e.message.content);
    expect(results[0].content).toMatch(/unknown tool "TeamCreate"/);
    expect(results[1].is_error).toBe(true);
    expect(results[1].content).toMatch(/refused/);
    expect((await store.config.require()).name).toBe('t');
  });

  it('one process per agent name: a second alice is refused with the holder', async () => {
    const ws = teamWorkspace({ teamEnabled: true });
    cleanups.push(ws.cleanup);
    const store = new TeamStore(path.join(ws.dir, '.thclaws/state/team'));
    store.init();
    await store.config.create({ name: 't', members: [{ name: 'alice' }] });
    const lease = await store.acquireLease('alice');
    try {
      const s = writeScript(ws, { rules: [{ turns: [{ text: 'hi' }] }] });
      const r = await runCli(['-p', 'hello', '--script', s, '--team-agent', 'alice'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toMatch(/^thclaws: agent "alice" is already running \(pid \d+/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      await lease.release();
    }
  });
});
