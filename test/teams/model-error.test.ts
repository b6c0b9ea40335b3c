/**
 * A failure never reads as idle: real teammate processes (and the dashboard's lead) on the real SDK against
 * the fake Messages API answering 401, or an endpoint nobody listens on, read `error` with the reason in
 * `thclaws team status --json` and in the host's member view (the dashboard API), `working` with the retry
 * shown while a call is retried, and their state comes back once a model call succeeds again.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../agent/fake-anthropic.js';
import { runCli, scrubbedEnv } from '../agent/helpers.js';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { HostSession } from '../../src/main/host/session.js';
import { RecentWorkspaces } from '../../src/main/host/recent.js';
import { TeamHost } from '../../src/main/host/team-host.js';
import type { HostEvent, Member } from '../../src/contract/api.js';
import { shownMember, THCLAWS } from '../desktop/helpers.js';
import { cleanupsAfterEach, leadSession, teamWorkspace, waitFor, writeScript, type Ws } from './helpers.js';

const cleanups = cleanupsAfterEach();

/** A port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** `team status --json` as a person's script reads it. */
async function cliMember(ws: Ws, name: string): Promise<{ state: string; error: string | null; retry: string | null }> {
  const r = await runCli(['team', 'status', '--json'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).members.find((m: { name: string }) => m.name === name);
}

/** A dashboard's view of the workspace: the host's member events, as the renderer folds them. */
async function dashboardView(ws: Ws, opts: { startLead?: boolean; env?: Record<string, string> } = {}): Promise<{ host: TeamHost; member: (n: string) => Member | undefined; send: (body: Record<string, unknown>) => Promise<void> }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'host-home-'));
  const host = new TeamHost({
    workspace: ws.dir,
    startLead: opts.startLead ?? false,
    leadArgv: [THCLAWS, '--cwd', ws.dir],
    env: { HOME: ws.home, XDG_CONFIG_HOME: path.join(ws.home, '.config'), ...opts.env },
    recent: new RecentWorkspaces(path.join(home, 'r.json')),
  });
  cleanups.push(() => host.close());
  await host.open();
  const events: HostEvent[] = [];
  const session = new HostSession(host, (e) => events.push(e));
  let id = 1;
  const send = (body: Record<string, unknown>) => session.handle({ id: id++, ...body });
  await send({ type: 'subscribe' });
  return { host, member: (n) => shownMember(events, n), send };
}

async function teamWith(ws: Ws, env: Record<string, string>) {
  const session = leadSession(ws, writeScript(ws, { rules: [] }), { childFlags: [], childEnv: { HOME: ws.home, THCLAWS_TEST: '1', ...env } });
  cleanups.push(async () => {
    await shutdownTeam(session, new LeadHandler(session), { graceMs: 1000, force: true }).catch(() => {});
    await session.close();
  });
  session.store.init();
  await session.store.config.create({ name: 't', members: [{ name: 'alice', model: 'claude-sonnet-5-5' }] });
  await session.becomeLead();
  return session;
}

describe('a model failure reads error, with its reason, until a call succeeds', () => {
  it('a refused key (401): `team status --json` and the dashboard say error, "API key refused (401)"; a later good call clears it', async () => {
    const fake = await new FakeAnthropic().start();
    cleanups.push(() => fake.close());
    let refuse = true;
    fake.respond = () => (refuse ? { kind: 'error', status: 401, message: 'invalid x-api-key' } : { text: 'back at work' });
    const ws = teamWorkspace({ retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 20 } });
    cleanups.push(() => ws.cleanup());
    const session = await teamWith(ws, { ANTHROPIC_API_KEY: 'refused-key', ANTHROPIC_BASE_URL: fake.url });
    await spawnTeammate(session, { name: 'alice' });
    await session.store.send('lead', 'alice', 'say hello');

    const failed = await waitFor(async () => {
      const m = await cliMember(ws, 'alice');
      return m.state === 'error' ? m : null;
    }, 'alice in error in team status --json');
    expect(failed).toMatchObject({ state: 'error', error: 'API key refused (401)', retry: null });
    // A 401 is not retried: one request, and the status file says why.
    expect(fake.requests.filter((r) => r.url.startsWith('/v1/messages'))).toHaveLength(1);
    const text = await runCli(['team', 'status'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect(text.stdout.split('\n').find((l) => l.startsWith('alice '))).toContain('error: API key refused (401)');

    const dash = await dashboardView(ws);
    const shown = await waitFor(() => (dash.member('alice')?.state === 'error' ? dash.member('alice') : null), 'alice in error in the dashboard');
    expect(shown).toMatchObject({ state: 'error', alive: true, error: 'API key refused (401)' });

    // The key works again: the next turn's successful call clears the error.
    refuse = false;
    await session.store.send('lead', 'alice', 'try again');
    await waitFor(() => dash.member('alice')?.state === 'idle' && dash.member('alice')?.error === null, 'alice idle again in the dashboard');
    expect(await cliMember(ws, 'alice')).toMatchObject({ state: 'idle', error: null, retry: null });
  }, 90_000);

  it('an unreachable endpoint: working with the retry shown, then error "cannot reach …: ECONNREFUSED"; the endpoint coming up clears it', async () => {
    const port = await closedPort();
    const base = `http://127.0.0.1:${port}`;
    // Two retries about a second apart: long enough to see the retry in the status.
    const ws = teamWorkspace({ retry: { maxRetries: 2, baseDelayMs: 2000, maxDelayMs: 2500 } });
    cleanups.push(() => ws.cleanup());
    const session = await teamWith(ws, { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: base });
    await spawnTeammate(session, { name: 'alice' });
    const dash = await dashboardView(ws);
    await session.store.send('lead', 'alice', 'say hello');

    const retrying = await waitFor(async () => {
      const st = await session.store.statuses.read('alice');
      return st?.retry ? st : null;
    }, 'a retry in alice status', 20_000);
    expect(retrying.status).toBe('working');
    expect(retrying.retry).toMatch(new RegExp(`^retrying \\([12]/2\\): cannot reach ${base.replace(/[.]/g, '\\.')}: ECONNREFUSED$`));
    // The dashboard shows it too: working, with the retry beside the badge.
    const shownRetry = await waitFor(() => (dash.member('alice')?.retry ? dash.member('alice') : null), 'the retry in the dashboard', 20_000);
    expect(shownRetry).toMatchObject({ state: 'working', error: null, retry: expect.stringMatching(/^retrying \([12]\/2\): cannot reach /) });
    const m = await waitFor(async () => {
      const v = await cliMember(ws, 'alice');
      return v.state === 'error' ? v : null;
    }, 'alice in error after its retries', 30_000);
    expect(m.error).toBe(`cannot reach ${base}: ECONNREFUSED (gave up after 3 attempts)`);
    expect(m.retry).toBeNull();
    await waitFor(() => dash.member('alice')?.error === m.error, 'the dashboard shows the reason');
    expect(dash.member('alice')?.state).toBe('error');

    const fake = await new FakeAnthropic().start(port);
    cleanups.push(() => fake.close());
    fake.fallback = { text: 'reachable again' };
    await session.store.send('lead', 'alice', 'try again');
    await waitFor(async () => (await cliMember(ws, 'alice')).state === 'idle', 'alice idle once the endpoint answers', 30_000);
    await waitFor(() => dash.member('alice')?.state === 'idle' && dash.member('alice')?.error === null, 'the dashboard clears the error');
  }, 90_000);

  it("the dashboard's lead: a refused key turns its badge to error with the reason, not idle", async () => {
    const fake = await new FakeAnthropic().start();
    cleanups.push(() => fake.close());
    fake.respond = () => ({ kind: 'error', status: 401, message: 'invalid x-api-key' });
    const ws = teamWorkspace({ retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 } });
    cleanups.push(() => ws.cleanup());
    const setup = await runCli(['team', 'create', 't', '--members', 'alice'], { cwd: ws.dir, env: scrubbedEnv(ws.home) });
    expect(setup.code, setup.stderr).toBe(0);
    const dash = await dashboardView(ws, { startLead: true, env: { ANTHROPIC_API_KEY: 'refused-key', ANTHROPIC_BASE_URL: fake.url } });
    await dash.send({ type: 'attach', agent: 'lead', cols: 100, rows: 30 });
    await waitFor(() => dash.member('lead')?.state === 'idle', 'the lead up and idle', 40_000);
    await dash.send({ type: 'input', agent: 'lead', data: 'hello\r' });
    const lead = await waitFor(() => (dash.member('lead')?.state === 'error' ? dash.member('lead') : null), 'the lead in error', 40_000);
    expect(lead).toMatchObject({ state: 'error', error: 'API key refused (401)' });
    expect(await cliMember(ws, 'lead')).toMatchObject({ state: 'error', error: 'API key refused (401)' });
  }, 90_000);
});
