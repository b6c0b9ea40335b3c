/**
 * One model choice: the model the dashboard shows for a member not running yet is the model its spawned
 * process then asks the (fake) Messages API for, whatever decides it — the member's own (an alias), its role's,
 * its agent definition's, the settings' default — and the dashboard keeps showing it once the process runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeAnthropic } from '../agent/fake-anthropic.js';
import { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { spawnTeammate } from '../../src/core/teams/spawn.js';
import { openHostView } from '../host-view.js';
import { shownMember } from '../desktop/helpers.js';
import { cleanupsAfterEach, leadSession, modelsAsked, teamWorkspace, waitFor, writeScript } from './helpers.js';

const cleanups = cleanupsAfterEach();

describe('which model a teammate runs', () => {
  it('the dashboard shows, for each source, the model the spawned teammate runs', async () => {
    const fake = await new FakeAnthropic().start();
    fake.fallback = { text: 'ok' };
    const ws = teamWorkspace({ model: 'claude-opus-4-6', roleModels: { Reviewer: 'haiku' } });
    fs.mkdirSync(path.join(ws.dir, '.thclaws', 'agents'));
    fs.writeFileSync(path.join(ws.dir, '.thclaws', 'agents', 'defd.md'), '---\nname: defd\ndescription: has its own model\nmodel: claude-sonnet-4-6\n---\nYou write docs.\n');
    const session = leadSession(ws, writeScript(ws, { rules: [{ turns: [{ text: 'ok' }] }] }), {
      childFlags: [],
      childEnv: { HOME: ws.home, THCLAWS_TEST: '1', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
      roleModels: { Reviewer: 'haiku' },
    });
    session.store.init();
    const members = [
      { name: 'pinned', role: 'reviewer', model: 'sonnet' }, // the member's own, an alias
      { name: 'rev', role: 'reviewer' }, // its role's
      { name: 'defd', role: 'writer' }, // its agent definition's
      { name: 'plain', role: 'developer' }, // the settings' default
      { name: 'clicked', role: 'reviewer' }, // its role's, started from the dashboard
    ];
    await session.store.config.create({ name: 't', members });
    await session.becomeLead();
    const view = await openHostView(ws.dir, { env: { HOME: ws.home, XDG_CONFIG_HOME: path.join(ws.home, '.config'), ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url } });
    const events = view.events;
    cleanups.push(async () => {
      await view.close();
      await shutdownTeam(session, new LeadHandler(session), { graceMs: 500, force: true }).catch(() => {});
      await session.close();
      await fake.close();
      ws.cleanup();
    });
    await waitFor(() => members.every((m) => shownMember(events, m.name)), 'every member shown');
    const before = Object.fromEntries(members.map((m) => [m.name, shownMember(events, m.name)!.model]));
    expect(before).toEqual({ pinned: 'claude-sonnet-5-5', rev: 'claude-haiku-5-5', defd: 'claude-sonnet-4-6', plain: 'claude-opus-4-6', clicked: 'claude-haiku-5-5' });

    for (const m of members.filter((x) => x.name !== 'clicked')) await spawnTeammate(session, { name: m.name, prompt: `marker-${m.name}` });
    // The person's Start in the dashboard (a pane of this host), then a message to it.
    expect(await view.call({ type: 'member_start', name: 'clicked' })).toMatchObject({ ok: true });
    expect(await view.call({ type: 'send_message', to: 'clicked', text: 'marker-clicked' })).toMatchObject({ ok: true });
    for (const m of members) await waitFor(() => modelsAsked(fake.requests, `marker-${m.name}`).length > 0, `${m.name} asks the API`, 60_000);
    for (const m of members) expect(modelsAsked(fake.requests, `marker-${m.name}`), m.name).toEqual([before[m.name]]);
    for (const m of members) await waitFor(() => shownMember(events, m.name)?.model === before[m.name] && shownMember(events, m.name)?.alive, `${m.name} shown running its model`);
  }, 120_000);
});
