/**
 * The first minutes and the team from the GUI, through a real TeamHost and the view protocol (HostSession):
 * a fresh folder with no key is opened without writing into it and its lead is "not configured"; a key is
 * checked, stored in the config dir (0600) and never sent back; the team is created and its members added,
 * edited and removed under the membership rules, each change told to the lead as a frame.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TeamStore } from '../../src/core/store/index.js';
import { TeamHost } from '../../src/main/host/team-host.js';
import type { HostEvent } from '../../src/contract/api.js';
import { openHostView } from '../host-view.js';
import { shownMember, waitFor } from './helpers.js';

const KEY = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-k3y9';
const hosts: TeamHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

async function open(ws: string, startLead = false) {
  const view = await openHostView(ws, { host: { startLead } });
  hosts.push(view.host);
  return view;
}

const freshFolder = () => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gui-fresh-')));
const last = <T extends HostEvent['type']>(events: HostEvent[], type: T) => events.filter((e) => e.type === type).at(-1) as Extract<HostEvent, { type: T }> | undefined;

describe('first run without a key', () => {
  it('opening a fresh folder writes nothing into it; the lead is "not configured", not dead', async () => {
    const ws = freshFolder();
    const { events, host } = await open(ws, true);
    await waitFor(() => last(events, 'roster'), 'the roster');
    expect(last(events, 'setup')!.setup).toMatchObject({ needs_key: true, key: null, problem: null });
    expect(host.member('lead')).toMatchObject({ state: 'not_configured', alive: false, can_respawn: false });
    // A few liveness ticks later, still nothing in the folder.
    await new Promise((r) => setTimeout(r, 2500));
    expect(fs.readdirSync(ws)).toEqual([]);
  });

  it('"Try the demo team here" opens a throw-away demo workspace in this dashboard; the folder stays untouched; closing removes the demo', async () => {
    const { HostManager } = await import('../../src/main/host/connection.js');
    const ws = freshFolder();
    const { host, env } = await open(ws);
    const manager = new HostManager(host, (o) => {
      const h = new TeamHost(o);
      hosts.push(h);
      return h;
    });
    const events: HostEvent[] = [];
    const conn = manager.connect((e) => events.push(e));
    await conn.handle({ id: 1, type: 'subscribe' });
    await conn.handle({ id: 2, type: 'demo_start' });
    const reply = events.find((e) => e.type === 'reply' && e.id === 2) as Extract<HostEvent, { type: 'reply' }>;
    expect(reply).toMatchObject({ ok: true });
    const demo = reply.result as string;
    expect(demo).not.toBe(ws);
    expect(manager.host.workspace).toBe(demo);
    // The demo runs on the scripted provider: its lead starts without a key, and the demo prompt is typed in.
    await waitFor(() => events.some((e) => e.type === 'setup' && !e.setup.needs_key && e.setup.scripted), 'the demo set up without a key');
    await waitFor(() => manager.host.terminal('lead').seq > 0 && manager.host.member('lead')?.terminal.kind === 'pty', 'the demo lead running');
    expect(fs.readdirSync(ws)).toEqual([]);
    // The person's own config dir got no trust entry for the demo (the demo trusts itself in its own).
    expect(fs.existsSync(path.join(env.XDG_CONFIG_HOME, 'thclaws', 'trusted-folders.json'))).toBe(false);
    await manager.close();
    expect(fs.existsSync(demo)).toBe(false);
  }, 60_000);

  it('a key of the wrong shape is refused with one sentence; a good one is stored in the config dir only, never sent back, and the lead starts', async () => {
    const ws = freshFolder();
    const { events, call, env } = await open(ws, true);
    const bad = await call({ type: 'key_set', key: 'sk-proj-not-an-anthropic-key-000000' });
    expect(bad).toMatchObject({ ok: false });
    expect(bad.error).toMatch(/^That does not look like an Anthropic API key: .*\.$/);
    const file = path.join(env.XDG_CONFIG_HOME, 'thclaws', 'credentials.json');
    expect(fs.existsSync(file)).toBe(false);
    const good = await call({ type: 'key_set', key: `${KEY}\n` });
    expect(good).toMatchObject({ ok: true, result: { last4: 'k3y9' } });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(last(events, 'setup')!.setup).toMatchObject({ needs_key: false, key: { source: 'file', last4: 'k3y9' } });
    // The key never crosses to a view, and nothing of it lands in the workspace.
    expect(JSON.stringify(events)).not.toContain(KEY.slice(0, 20));
    await waitFor(() => shownMember(events, 'lead')?.terminal.kind === 'pty', 'the lead started in a pty');
    const inWs = fs.existsSync(path.join(ws, '.thclaws')) ? fs.readdirSync(path.join(ws, '.thclaws'), { recursive: true }).map(String) : [];
    for (const f of inWs) {
      const p = path.join(ws, '.thclaws', f);
      if (fs.statSync(p).isFile()) expect(fs.readFileSync(p, 'utf8')).not.toContain(KEY.slice(0, 20));
    }
    // Settings' "Remove": the stored key is deleted and the next start of the lead needs one again.
    expect(await call({ type: 'key_remove' })).toMatchObject({ ok: true, result: { key: null } });
    expect(fs.existsSync(file)).toBe(false);
    expect(last(events, 'setup')!.setup).toMatchObject({ needs_key: true, key: null });
  }, 60_000);
});

describe('the team from the GUI', () => {
  it('creates a team, adds, edits and removes members under the membership rules; the lead hears of each change', async () => {
    const ws = freshFolder();
    const { events, call } = await open(ws);
    const store = new TeamStore(path.join(ws, '.thclaws', 'state', 'team'));
    expect(await call({ type: 'team_create', name: 'web', description: 'a small web app' })).toMatchObject({ ok: true });
    expect(await store.config.require()).toMatchObject({ name: 'web', description: 'a small web app', members: [] });
    expect(await call({ type: 'team_create', name: 'again', description: '' })).toMatchObject({ ok: false, error: expect.stringContaining('already exists') });

    const spec = { role: 'API', model: 'claude-haiku-4-5', isolation: 'worktree', plan_mode: true, permission_mode: 'auto', prompt: 'You own the API.' };
    expect(await call({ type: 'member_add', name: 'alice', spec })).toMatchObject({ ok: true });
    const alice = (await store.config.require()).members.find((m) => m.name === 'alice')!;
    expect(alice).toMatchObject({ role: 'API', model: 'claude-haiku-4-5', isolation: 'worktree', plan_mode_required: true, prompt: 'You own the API.' });
    const local = JSON.parse(fs.readFileSync(path.join(ws, '.thclaws', 'settings.local.json'), 'utf8'));
    expect(local.teammates.alice.permissionMode).toBe('auto');
    await waitFor(() => last(events, 'member_specs')?.specs.alice?.permission_mode === 'auto', 'the specs event');
    expect(last(events, 'member_specs')!.specs.alice).toEqual({ role: 'API', model: 'claude-haiku-4-5', isolation: 'worktree', plan_mode: true, permission_mode: 'auto', prompt: 'You own the API.', host: null });
    // Reserved and invalid names never reach the store.
    expect(await call({ type: 'member_add', name: 'lead', spec: {} })).toMatchObject({ ok: false, error: expect.stringContaining('reserved') });
    expect(await call({ type: 'member_add', name: '../x', spec: {} })).toMatchObject({ ok: false, error: expect.stringContaining('invalid request: name') });

    expect(await call({ type: 'member_edit', name: 'alice', spec: { role: 'backend API', isolation: 'shared' } })).toMatchObject({ ok: true });
    expect((await store.config.require()).members[0]).toMatchObject({ role: 'backend API', isolation: 'none', model: 'claude-haiku-4-5' });

    // Live: no edit, no removal.
    await store.statuses.write('alice', { status: 'working', pid: process.pid });
    expect(await call({ type: 'member_edit', name: 'alice', spec: { role: 'x' } })).toMatchObject({ ok: false, error: 'alice is working: stop it before you edit it' });
    expect(await call({ type: 'member_remove', name: 'alice' })).toMatchObject({ ok: false, error: 'alice is working: stop it before you remove it' });
    // Stopped but owning an unfinished task: still refused, saying what to do.
    await store.statuses.write('alice', { status: 'stopped', pid: null });
    const task = await store.tasks.create({ subject: 'build it', description: '', reservedFor: 'alice' });
    await store.send('user', 'alice', 'hello alice');
    expect(await call({ type: 'member_remove', name: 'alice' })).toMatchObject({ ok: false, error: `alice still owns unfinished task #${task.id}: reassign or cancel it first` });
    await store.tasks.update(task.id, { cancel: true, reason: 'by user' });
    expect(await call({ type: 'member_remove', name: 'alice' })).toMatchObject({ ok: true });
    expect((await store.config.require()).members).toEqual([]);
    // Its inbox and history are kept, moved aside; the name is not reused.
    const removed = fs.readdirSync(path.join(store.dir, 'removed'));
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatch(/^alice-\d+$/);
    const kept = path.join(store.dir, 'removed', removed[0]!);
    expect(JSON.parse(fs.readFileSync(path.join(kept, 'inbox', 'alice.json'), 'utf8'))[0].text).toBe('hello alice');
    expect(fs.existsSync(path.join(kept, 'agent', 'status.json'))).toBe(true);
    expect(fs.existsSync(store.paths.inbox('alice'))).toBe(false);
    expect(await call({ type: 'member_add', name: 'alice', spec: {} })).toMatchObject({ ok: false, error: expect.stringContaining('belonged to a removed member') });

    // One team_changed frame per change, addressed to the lead, stamped with the session epoch field.
    const frames = store.inboxes.unread('lead').filter((m) => m.type === 'team_changed');
    expect(frames.map((m) => (m as Record<string, unknown>).change)).toEqual(['team_created', 'member_added', 'member_edited', 'member_removed']);
    expect(frames.every((m) => m.from === 'user' && 'epoch' in m)).toBe(true);
  }, 60_000);

  it('message all reaches the lead and every teammate', async () => {
    const ws = freshFolder();
    const { call } = await open(ws);
    await call({ type: 'team_create', name: 'web', description: '' });
    await call({ type: 'member_add', name: 'a1', spec: {} });
    await call({ type: 'member_add', name: 'b2', spec: {} });
    expect(await call({ type: 'send_message', to: '*', text: 'standup in 5' })).toMatchObject({ ok: true, result: { sent: 3 } });
    const store = new TeamStore(path.join(ws, '.thclaws', 'state', 'team'));
    for (const n of ['lead', 'a1', 'b2']) expect(store.inboxes.unread(n).some((m) => m.text === 'standup in 5')).toBe(true);
  });
});
