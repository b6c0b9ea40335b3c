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

async function open(ws: string, leadArgs: string[] = []) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'lead-msg-home-'));
  const view = await openHostView(ws, { env: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') }, host: { startLead: true, leadArgv: [THCLAWS, '--provider', 'scripted', ...leadArgs, '--cwd', ws] }, ack: true });
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

  it("a turn whose output shows a line like the lead's prompt, and a resize mid-turn: the message waits for the real prompt and reaches the lead", async () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lead-msg-ws-')));
    execFileSync('git', ['init', '-q'], { cwd: ws });
    // The model quotes the REPL's prompt on a line of its own, then streams on after a pause: mid-turn.
    const script = path.join(ws, '..', `lead-msg-script-${path.basename(ws)}.json`);
    fs.writeFileSync(script, JSON.stringify({ rules: [{ match: 'quote', turns: [{ text: 'Quote:\nthclaws> \nfinished quoting.', delay_ms: 1500 }] }, { match: 'hello', turns: [{ text: 'Hello back from the lead.' }] }] }));
    const { call, events, output } = await open(ws, ['--script', script]);
    await waitFor(() => shownMember(events, 'lead')?.alive, 'the lead to run');
    await call({ type: 'attach', agent: 'lead', cols: 100, rows: 30 });
    await waitFor(() => output().includes('thclaws> '), 'the first prompt');
    await call({ type: 'input', agent: 'lead', data: 'quote\r' });
    // eslint-disable-next-line no-control-regex
    await waitFor(() => /Quote:\s*\r?\nthclaws> /.test(output()), 'the quoted prompt line, mid-turn');
    expect(output()).not.toContain('finished quoting');
    // The pane resized mid-turn: readline redraws its line (it drew the bare prompt there, mid-turn).
    await call({ type: 'resize', agent: 'lead', cols: 90, rows: 30, active: true });
    // eslint-disable-next-line no-control-regex
    await waitFor(() => /Quote:\s*\r?\nthclaws> \r?\n[^]*\x1b\[1G\x1b\[0J/.test(output()), "readline's redraw after the resize");
    expect(await call({ type: 'send_message', to: 'lead', text: 'hello' })).toMatchObject({ ok: true, result: { sent: 1 } });
    await waitFor(() => output().includes('finished quoting'), 'the turn to end', 20_000);
    // Sent means delivered: the lead answers it (a line typed into a running turn is dropped by the REPL).
    await waitFor(() => output().includes('Hello back from the lead.'), "the lead's answer to the message", 20_000);
  }, 60_000);

  it('a control character in the message is refused in one line, never typed as a key (Ctrl-D first ended the lead)', async () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lead-msg-ws-')));
    execFileSync('git', ['init', '-q'], { cwd: ws });
    const { call, events, output } = await open(ws);
    await waitFor(() => shownMember(events, 'lead')?.alive, 'the lead to run');
    await call({ type: 'attach', agent: 'lead', cols: 100, rows: 30 });
    const refused = await call({ type: 'send_message', to: 'lead', text: '\u0004hel\u0015lo' });
    expect(refused).toMatchObject({ ok: false, error: "the message holds a control character (U+0004) that the lead's terminal would take as a key: remove it and send again" });
    // A tab is a space here (in the REPL it would be a completion key): the message goes through whole.
    expect(await call({ type: 'send_message', to: 'lead', text: 'hello\tthere' })).toMatchObject({ ok: true, result: { sent: 1 } });
    await waitFor(() => output().includes('scripted provider'), "the lead's answer", 20_000);
    expect(shownMember(events, 'lead')?.alive).toBe(true);
  }, 60_000);
});
