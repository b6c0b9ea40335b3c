/**
 * "Resume team" rules, on the real store with the spawn recorded: refused while a teammate is live; fresh start
 * without a session; removed or never-run members left alone; the lead continues the conversation a dead host
 * left behind only while the lead running now has taken no turn of its own. The whole path with real processes
 * (SIGKILL of the host, then Resume team through the dashboard) is in team-outlives-dashboard.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/core/agent/sessions.js';
import { LEAD, selfProcess, TeamStore } from '../../src/core/store/index.js';
import { leadSessionLeftBehind, resumeTeam } from '../../src/main/host/team-resume.js';
import { makeTeamWorkspace } from './helpers.js';

describe('Resume team rules (real store, spawn recorded)', () => {
  const setup = async (members: string[]) => {
    const ws = fs.realpathSync(makeTeamWorkspace(members));
    const store = TeamStore.forWorkspace(ws);
    const started: [string, string | undefined][] = [];
    const run = () => resumeTeam({ workspace: ws, store, start: async (n, r) => void started.push([n, r]) });
    return { ws, store, started, run };
  };

  it('resumes dead and stopped members, a member without a session fresh; never-run and removed members are left alone', async () => {
    const { ws, store, started, run } = await setup(['ann', 'bo', 'cy', 'dee']);
    const saved = SessionStore.create(ws, { model: 'm', provider: 'scripted', cwd: ws, agentName: 'ann' });
    await store.statuses.write('ann', { status: 'idle', pid: 999_999, pid_start: '1', host: os.hostname(), session_id: saved.id } as never);
    await store.statuses.write('bo', { status: 'stopped' });
    await store.statuses.write('dee', { status: 'stopped' });
    await store.config.update((c) => {
      c.members = c.members.filter((m) => m.name !== 'dee');
    });
    expect(await run()).toEqual({ resumed: [{ name: 'ann', session_id: saved.id }], fresh: ['bo'], failed: [] });
    expect(started).toEqual([['ann', saved.id], ['bo', undefined]]);
  });

  it('a live teammate refuses the whole resume, naming it; nothing is started', async () => {
    const { store, started, run } = await setup(['ann', 'bo']);
    const me = selfProcess();
    await store.statuses.write('bo', { status: 'idle', pid: me.pid, pid_start: me.start, host: me.host } as never);
    await store.statuses.write('ann', { status: 'stopped' });
    await expect(run()).rejects.toThrow(/while bo \(idle\) is running/);
    expect(started).toEqual([]);
  });

  it('a failed start is reported and the others still start', async () => {
    const { ws, store } = await setup(['ann', 'bo']);
    await store.statuses.write('ann', { status: 'stopped' });
    await store.statuses.write('bo', { status: 'stopped' });
    const out = await resumeTeam({ workspace: ws, store, start: async (n) => { if (n === 'ann') throw new Error('cap reached\nmore'); } });
    expect(out).toEqual({ resumed: [], fresh: ['bo'], failed: [{ name: 'ann', error: 'cap reached' }] });
  });

  it("the lead: a dead lead's saved conversation is found at open and continued, unless the lead now running already talked", async () => {
    const { ws, store } = await setup(['ann']);
    const saved = SessionStore.create(ws, { model: 'm', provider: 'scripted', cwd: ws });
    const dead = { pid: 999_999, pid_start: '1', host: os.hostname() };
    await store.statuses.write(LEAD, { status: 'idle', ...dead, session_id: saved.id } as never);
    expect(await leadSessionLeftBehind(store, ws)).toBe(saved.id);
    const restarted: string[] = [];
    const lead = { session: saved.id, restart: async (id: string) => void restarted.push(id) };
    // No teammate ran: the lead alone is resumed.
    expect(await resumeTeam({ workspace: ws, store, start: async () => undefined, lead })).toEqual({ resumed: [{ name: LEAD, session_id: saved.id }], fresh: [], failed: [] });
    expect(restarted).toEqual([saved.id]);
    // The lead running now recorded a conversation of its own (the person talked to it): it is left alone.
    await store.statuses.write(LEAD, { session_id: 'newer-one' } as never);
    await expect(resumeTeam({ workspace: ws, store, start: async () => undefined, lead })).rejects.toThrow(/no teammate of team "demo" has run yet/);
    expect(restarted).toEqual([saved.id]);
    // A live lead, or one whose session file is gone, leaves nothing behind.
    const me = selfProcess();
    await store.statuses.write(LEAD, { status: 'idle', pid: me.pid, pid_start: me.start, host: me.host, session_id: saved.id } as never);
    expect(await leadSessionLeftBehind(store, ws)).toBeUndefined();
    await store.statuses.write(LEAD, { status: 'idle', ...dead, session_id: saved.id } as never);
    fs.rmSync(saved.file);
    expect(await leadSessionLeftBehind(store, ws)).toBeUndefined();
  });
});
