/**
 * The lead's message box before a team exists, through the view protocol on a real TeamHost whose lead is a
 * real `thclaws` REPL (scripted provider) in a pty: the message reaches the lead and it answers; a request that
 * needs a team says what to do on this page, never a CLI command.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { TeamHost } from '../../src/main/host/team-host.js';
import { openHostView } from '../host-view.js';
import { shownMember, THCLAWS, waitFor } from './helpers.js';

const hosts: TeamHost[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.close();
});

async function open(ws: string) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-msg-home-'));
  const view = await openHostView(ws, { env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }, host: { startLead: true, leadArgv: [THCLAWS, '--provider', 'scripted', '--cwd', ws] }, ack: true });
  hosts.push(view.host);
  return { call: view.call, events: view.events, output: () => view.output('lead') };
}

describe("the lead's message box without a team", () => {
  it('the message reaches the lead REPL and it answers; what needs a team points at this page, not the CLI', async () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lead-msg-ws-')));
    execFileSync('git', ['init', '-q'], { cwd: ws });
    const { call, events, output } = await open(ws);
    await waitFor(() => shownMember(events, 'lead')?.alive, 'the lead to run');
    await call({ type: 'attach', agent: 'lead', cols: 100, rows: 30 });

    const sent = await call({ type: 'send_message', to: 'lead', text: 'hello' });
    expect(sent).toMatchObject({ ok: true, result: { sent: 1 } });
    await waitFor(() => output().includes('scripted provider'), "the lead's answer", 20_000);

    // Sent while the lead asks the person a permission question: it waits for the prompt, it is never the answer.
    await call({ type: 'input', agent: 'lead', data: 'list files\r' });
    await waitFor(() => output().includes('Allow Bash'), 'the permission question');
    const waiting = call({ type: 'send_message', to: 'lead', text: 'hello\nagain' });
    await call({ type: 'input', agent: 'lead', data: 'y\r' });
    expect(await waiting).toMatchObject({ ok: true, result: { sent: 1 } });
    await waitFor(() => output().split('Hello! I am thclaws').length === 3, 'the second answer', 20_000);
    expect(output()).not.toMatch(/please answer/);

    const refused = await call({ type: 'send_message', to: '*', text: 'everyone?' });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/^there is no team yet: use "Create a team" above/);
    expect(refused.error).not.toMatch(/thclaws team/);
    expect(fs.existsSync(path.join(ws, '.thclaws', 'state', 'team', 'config.json'))).toBe(false);
  }, 60_000);
});
