/**
 * The lead's own questions in the approval inbox: a real lead REPL (scripted provider) in the host's pty asks
 * the folder-trust question and a y/n/a permission; each appears as a card beside the teammates', the lead's
 * badge says it waits, and answering the card answers the REPL (typing in the pane would too).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { typeWhenReady } from '../../src/main/host/lead-prompt.js';
import { RecentWorkspaces } from '../../src/main/host/recent.js';
import { HostSession } from '../../src/main/host/session.js';
import { TeamHost, thclawsBin } from '../../src/main/host/team-host.js';
import type { HostEvent } from '../../src/contract/api.js';
import { waitFor } from './helpers.js';

const hosts: TeamHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

const SCRIPT = { rules: [{ match: 'write the note', turns: [{ text: 'writing', tool_calls: [{ name: 'Write', input: { path: 'note.txt', content: 'hi\n' } }] }, { text: 'written' }] }], fallback: [{ text: 'ok' }] };

async function start(settings: Record<string, unknown> | null) {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lead-q-')));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-q-home-'));
  if (settings) {
    fs.mkdirSync(path.join(ws, '.thclaws'));
    fs.writeFileSync(path.join(ws, '.thclaws', 'settings.json'), JSON.stringify(settings));
  }
  const script = path.join(home, 'script.json');
  fs.writeFileSync(script, JSON.stringify(SCRIPT));
  const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, 'cfg'), ANTHROPIC_API_KEY: '' };
  const host = new TeamHost({ workspace: ws, recent: new RecentWorkspaces(path.join(home, 'r.json')), env, leadArgv: [thclawsBin(), '--script', script] });
  hosts.push(host);
  const events: HostEvent[] = [];
  const s = new HostSession(host, (e) => events.push(e));
  await host.open();
  await s.handle({ id: 1, type: 'subscribe' });
  const leadCard = () => events.filter((e) => e.type === 'approvals').at(-1)?.items.find((a) => a.agent === 'lead');
  return { ws, home, host, events, s, leadCard };
}

describe("the lead's questions as approval cards", () => {
  it('a y/n/a permission of the lead: a card with the rule; its badge waits; Always on the card answers the REPL', async () => {
    const { ws, host, s, events, leadCard } = await start({ provider: 'scripted' });
    void typeWhenReady(host.terminal('lead'), 'write the note');
    const card = await waitFor(leadCard, "the lead's permission card", 60_000);
    expect(card).toMatchObject({ agent: 'lead', kind: 'permission', tool: 'Write', detail: 'note.txt', rule: expect.stringContaining('Write') });
    await waitFor(() => host.member('lead')?.waiting_for === card.request_id, 'the lead waiting for you');
    expect(fs.existsSync(path.join(ws, 'note.txt'))).toBe(false);
    await s.handle({ id: 2, type: 'approval_answer', request_id: card.request_id, allow: true, always: true });
    expect(events.find((e) => e.type === 'reply' && e.id === 2)).toMatchObject({ ok: true });
    await waitFor(() => fs.existsSync(path.join(ws, 'note.txt')), 'the Write the card allowed');
    await waitFor(() => !leadCard() && host.member('lead')?.waiting_for === null, 'the card gone, the lead no longer waiting');
    // "Always" went to the REPL as `a`: the lead stored the rule in the person's local settings.
    expect(fs.readFileSync(path.join(ws, '.thclaws', 'settings.local.json'), 'utf8')).toContain('Write');
    // A stale answer is refused, not typed into the REPL.
    await s.handle({ id: 3, type: 'approval_answer', request_id: card.request_id, allow: true });
    expect(events.find((e) => e.type === 'reply' && e.id === 3)).toMatchObject({ ok: false, error: expect.stringContaining('no longer asking') });
  }, 90_000);

  it('the folder-trust question at start is a card too; answering it trusts the folder in the config dir', async () => {
    const { ws, home, s, events, leadCard } = await start({ provider: 'scripted', permissions: { allow: ['Bash'] } });
    const card = await waitFor(leadCard, 'the trust card', 60_000);
    expect(card).toMatchObject({ agent: 'lead', tool: 'folder trust', detail: ws, rule: null });
    expect(card.summary).toContain('permissions.allow');
    await s.handle({ id: 2, type: 'approval_answer', request_id: card.request_id, allow: true });
    expect(events.find((e) => e.type === 'reply' && e.id === 2)).toMatchObject({ ok: true });
    await waitFor(() => fs.existsSync(path.join(home, 'cfg', 'thclaws', 'trusted-folders.json')) && fs.readFileSync(path.join(home, 'cfg', 'thclaws', 'trusted-folders.json'), 'utf8').includes(ws), 'the folder trusted');
    await waitFor(() => !leadCard(), 'the card gone');
  }, 90_000);
});
