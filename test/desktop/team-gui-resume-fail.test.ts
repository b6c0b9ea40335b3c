/**
 * "Resume team" when the lead restarted on its old conversation exits while it boots, before it writes its
 * status (here: the project's settings were broken after the host started): the reply names the lead's own
 * cause at once and does not call it resumed (not an 8 s boot wait that ends in "resumed"), through a real
 * TeamHost, the view protocol and a real `thclaws` lead in a pty.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionStore } from '../../src/core/agent/sessions.js';
import { LEAD, TeamStore } from '../../src/core/store/index.js';
import { RecentWorkspaces } from '../../src/main/host/recent.js';
import { HostSession } from '../../src/main/host/session.js';
import { TeamHost } from '../../src/main/host/team-host.js';
import type { HostEvent } from '../../src/contract/api.js';
import { makeTeamWorkspace, THCLAWS, waitFor } from './helpers.js';

const hosts: TeamHost[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/**
 * A host on a team whose lead a killed host left behind (its conversation saved, `spoil` may damage it), its lead
 * started fresh and up; `resume()` is the person's Resume team, answered with its outcome.
 */
async function hostWithLeadLeftBehind(spoil: (sessionFile: string) => void = () => {}) {
  const ws = fs.realpathSync(makeTeamWorkspace(['alice']));
  dirs.push(ws);
  fs.writeFileSync(path.join(ws, '.thclaws/settings.json'), JSON.stringify({ teamEnabled: true }));
  const saved = SessionStore.create(ws, { model: 'm', provider: 'scripted', cwd: ws });
  spoil(saved.file);
  const store = TeamStore.forWorkspace(ws);
  await store.statuses.write(LEAD, { status: 'idle', pid: 999_999, pid_start: '1', host: os.hostname(), session_id: saved.id } as never);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'resume-fail-home-'));
  dirs.push(home);
  const host = new TeamHost({
    workspace: ws,
    env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
    leadArgv: [THCLAWS, '--provider', 'scripted', '--cwd', ws],
    recent: new RecentWorkspaces(path.join(home, 'r.json')),
  });
  hosts.push(host);
  const events: HostEvent[] = [];
  const s = new HostSession(host, (e) => events.push(e));
  await host.open();
  expect(host.leadLeftBehind).toBe(saved.id);
  // The lead this host started on a fresh conversation is up before the person resumes.
  const first = await waitFor(async () => {
    const st = await store.statuses.read(LEAD);
    return st?.pid && st.pid !== 999_999 ? st.pid : null;
  }, 'the new lead up', 3000);
  const resume = async () => {
    await s.handle({ id: 1, type: 'team_resume' });
    const reply = events.find((e) => e.type === 'reply' && e.id === 1) as Extract<HostEvent, { type: 'reply' }>;
    expect(reply).toMatchObject({ ok: true });
    return reply.result as { resumed: unknown[]; fresh: string[]; failed: { name: string; error: string }[] };
  };
  return { ws, host, first, resume };
}

describe('Resume team: the lead exits while it boots', () => {
  it('the reply names the cause the lead printed (not "resumed", not a boot timeout)', async () => {
    const { ws, host, first, resume } = await hostWithLeadLeftBehind();
    // Settings broken by hand while this host runs: a lead started now exits with one line, before its status.
    fs.writeFileSync(path.join(ws, '.thclaws/settings.json'), JSON.stringify({ teamEnabled: true, hooks: 'nope' }));
    const result = await resume();
    expect(result.resumed).toEqual([]);
    expect(result.failed).toHaveLength(1);
    expect(result.failed[0]!.name).toBe(LEAD);
    expect(result.failed[0]!.error).toMatch(/^exited with code 2 before it started: thclaws: invalid settings file .*settings\.json: key "hooks"/);
    // The lead started on the old conversation is gone, and not shown as running.
    expect(host.member(LEAD)).toMatchObject({ alive: false });
    expect(host.member(LEAD)?.state).not.toMatch(/idle|working/);
    expect(() => process.kill(first, 0)).toThrow();
  }, 60_000);

  it('a saved conversation that cannot be read: the reply names it, the lead is not called resumed', async () => {
    // A line torn in the middle of the transcript (not its last line, which a crash may leave and is skipped).
    const { host, resume } = await hostWithLeadLeftBehind((file) => fs.appendFileSync(file, '{"type":"message", torn\n{"type":"usage","usage":{}}\n'));
    const result = await resume();
    expect(result.resumed).toEqual([]);
    expect(result.failed.map((f) => f.name)).toEqual([LEAD]);
    expect(result.failed[0]!.error).toMatch(/before it started: thclaws: .*\.jsonl:\d+: not valid JSON/);
    expect(host.member(LEAD)).toMatchObject({ alive: false });
  }, 60_000);
});
