/**
 * `thclaws dashboard --remote` with real processes: a private sshd on 127.0.0.1 and a second local user as "the
 * other machine" (test/remote/ssh-machine.ts). The dashboard reaches the remote team through THCLAWS_SSH; the
 * remote host runs as that user; killing the local ssh leaves the remote team working, the page says the link is
 * lost and comes back by itself to the same pids with the screen restored; no token on any command line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src/contract/api.js';
import { LEAD } from '../../src/core/store/index.js';
import { THCLAWS, waitFor } from '../desktop/helpers.js';
import { TermView } from '../desktop/term-view.js';
import { procs, uidOf } from './procs.js';
import { skipReason, startSshMachine, type SshMachine } from './ssh-machine.js';

const skip = skipReason();
const USER = 'thcr6';
const script = { rules: [{ match: 'first question', turns: [{ text: 'FIRST ANSWER FROM THE REMOTE' }] }, { match: 'after the drop', turns: [{ text: 'ANSWER AFTER THE DROP' }] }], fallback: [{ text: 'FALLBACK' }] };

/** The pids whose parent is `ppid`. */
const children = (ppid: number): number[] => procs().filter((p) => {
  try {
    return Number(fs.readFileSync(`/proc/${p.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === ppid;
  } catch {
    return false;
  }
}).map((p) => p.pid);
const comm = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

describe.skipIf(skip)('thclaws dashboard --remote: the team on another machine', () => {
  let m: SshMachine;
  let ws: string;
  let dash: ChildProcess;
  let out = '';
  /** The remote folder whose team the third test stopped there. */
  let stoppedDir = '';
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-remote-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-remote-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];

  beforeAll(async () => {
    m = await startSshMachine({ users: ['thcr6', 'thcr9'] });
    env.THCLAWS_SSH = m.ssh;
    ws = m.workspace(USER);
    const setup = m.run(USER, `cd ${ws} && git init -q && mkdir -p .thclaws && printf '%s' '${JSON.stringify({ provider: 'scripted', teamEnabled: true })}' > .thclaws/settings.json && printf '%s' '${JSON.stringify(script)}' > lead-script.json`);
    expect(setup.status, setup.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    if (dash && dash.exitCode === null) dash.kill('SIGKILL');
    await m?.close();
    fs.rmSync(home, { recursive: true, force: true });
  }, 60_000);

  it('the page reaches the remote team; the host runs as the remote user; ssh killed → "connection lost", the team works on, the view comes back to the same pids with its screen', async () => {
    dash = spawn(THCLAWS, ['dashboard', '--remote', m.url(USER, ws), '--remote-bin', m.bin, '--lead-script', path.join(ws, 'lead-script.json'), '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    dash.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    dash.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const [, url, where, hostPid] = await waitFor(() => /(http:\/\/\S+token=\S+)[\s\S]*agents run on (\S+ in \S+) \(host pid (\d+) there\)/.exec(out), `the dashboard's URL and where the team runs (${out})`, 90_000);
    expect(where).toBe(`${USER} in ${ws}`);
    // The host runs on "the other machine", as its user.
    expect(uidOf(Number(hostPid))).toBe(m.user(USER).uid);

    const v = await TermView.overWebSocket(url!);
    try {
      v.attachAll([LEAD]);
      const lead = await waitFor(() => v.pid(LEAD), 'the remote lead running', 90_000);
      expect(uidOf(lead)).toBe(m.user(USER).uid);
      await waitFor(async () => (await v.text(LEAD)).includes('thclaws>'), 'the remote lead prompt', 60_000);
      v.fire({ type: 'input', agent: LEAD, data: 'first question\r' });
      await waitFor(async () => (await v.text(LEAD)).includes('FIRST ANSWER FROM THE REMOTE'), 'the remote lead answering', 60_000);

      // No token or key on a command line on either side.
      const token = new URL(url!).searchParams.get('token')!;
      expect(procs().filter((p) => p.cmdline.includes(token)).map((p) => p.pid)).toEqual([]);

      // The link drops: the local ssh of this view is killed.
      const ssh = await waitFor(() => children(dash.pid!).filter((p) => comm(p) === 'ssh'), 'the view\'s ssh process');
      expect(ssh).toHaveLength(1);
      process.kill(ssh[0]!, 'SIGKILL');
      const lost = await waitFor(() => v.events.find((e): e is Extract<HostEvent, { type: 'link' }> => e.type === 'link' && e.lost), 'the view told the link is lost');
      expect(lost.label).toBe(USER);
      expect(v.events.some((e) => e.type === 'notice' && e.text === `connection to ${USER} lost — the team keeps running there; reconnecting…`)).toBe(true);
      // The team keeps working there.
      expect(uidOf(Number(hostPid))).toBe(m.user(USER).uid);
      expect(uidOf(lead)).toBe(m.user(USER).uid);

      // Back by itself, on the same host and lead, the screen restored (a replay with what was said before).
      const at = v.events.length;
      await waitFor(() => v.events.slice(at).some((e) => e.type === 'link' && !e.lost), 'the view linked again', 60_000);
      await waitFor(() => v.events.slice(at).some((e) => e.type === 'replay' && e.agent === LEAD), 'the lead\'s screen restored', 30_000);
      expect(v.pid(LEAD)).toBe(lead);
      expect(await v.text(LEAD)).toContain('FIRST ANSWER FROM THE REMOTE');
      const again = children(dash.pid!).filter((p) => comm(p) === 'ssh');
      expect(again).toHaveLength(1);
      expect(again[0]).not.toBe(ssh[0]);
      v.fire({ type: 'input', agent: LEAD, data: 'after the drop\r' });
      await waitFor(async () => (await v.text(LEAD)).includes('ANSWER AFTER THE DROP'), 'typing reaching the remote lead after the drop', 60_000);
    } finally {
      v.close();
    }
  }, 300_000);

  it('started again, the dashboard serves the same URL (kept by the remote URL); a view opens another folder on the same remote; the demo is refused there', async () => {
    const first = /(http:\/\/\S+token=\S+)/.exec(out)![1]!;
    const exited = new Promise((r) => dash.once('exit', r));
    dash.kill('SIGTERM');
    await exited;
    out = '';
    dash = spawn(THCLAWS, ['dashboard', '--remote', m.url(USER, ws), '--remote-bin', m.bin, '--lead-script', path.join(ws, 'lead-script.json')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    dash.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const [, url] = await waitFor(() => /(http:\/\/\S+token=\S+)[\s\S]*\(host pid \d+ there\)/.exec(out), `the dashboard again (${out})`, 90_000);
    expect(url).toBe(first);

    const other = m.workspace(USER);
    expect(m.run(USER, `cd ${other} && git init -q && mkdir .thclaws && echo '{"provider":"scripted"}' > .thclaws/settings.json`).status).toBe(0);
    const v = await TermView.overWebSocket(url!);
    try {
      v.attachAll([]);
      await waitFor(() => v.events.find((e) => e.type === 'workspace'), 'the first workspace');
      expect(await v.request({ type: 'demo_start' })).toMatchObject({ ok: false, error: `the demo runs on this machine, and this dashboard shows ${USER}: run thclaws dashboard --demo for it` });
      expect(await v.request({ type: 'open_workspace', dir: other })).toMatchObject({ ok: true });
      const moved = await waitFor(() => v.events.filter((e): e is Extract<HostEvent, { type: 'workspace' }> => e.type === 'workspace').find((e) => e.workspace.dir === other), 'the view on the other remote folder');
      // That folder's host runs there too, as the remote user.
      expect(uidOf(moved.workspace.host_pid!)).toBe(m.user(USER).uid);
    } finally {
      v.close();
    }
  }, 180_000);

  it('the team stopped on its machine while the link was down: the view says so, and no host is started there again behind the person', async () => {
    const url = /(http:\/\/\S+token=\S+)/.exec(out)![1]!;
    const v = await TermView.overWebSocket(url);
    try {
      v.attachAll([]);
      const shown = await waitFor(() => v.events.find((e): e is Extract<HostEvent, { type: 'workspace' }> => e.type === 'workspace'), 'the workspace shown');
      const hostPid = shown.workspace.host_pid!;
      const dir = shown.workspace.dir;
      stoppedDir = dir;
      const ssh = await waitFor(() => children(dash.pid!).filter((p) => comm(p) === 'ssh'), "the views' ssh processes");
      // The laptop asleep: the dashboard frozen, its links dropped, and meanwhile the team stopped over there.
      process.kill(dash.pid!, 'SIGSTOP');
      try {
        for (const p of ssh) process.kill(p, 'SIGKILL');
        expect(m.run(USER, [m.bin, 'host', '--stop', '--force', '--dir', dir]).status).toBe(0);
        await waitFor(() => uidOf(hostPid) < 0, 'the remote host gone', 30_000);
      } finally {
        process.kill(dash.pid!, 'SIGCONT');
      }
      const closed = await waitFor(() => v.events.find((e): e is Extract<HostEvent, { type: 'host_closed' }> => e.type === 'host_closed'), 'the view told the team is not running there', 60_000);
      expect(closed.reason).toBe(`the team's host on ${USER} is not running (stopped while the link was down): reload this page to start it again`);
      // No host of that folder runs there again (a relink that started one would have by now: its first try is at 0.5 s).
      await new Promise((r) => setTimeout(r, 2000));
      expect(procs().filter((p) => p.uid === m.user(USER).uid && p.cmdline.includes('host') && p.cmdline.includes(dir) && !p.cmdline.includes('--stop'))).toEqual([]);
    } finally {
      v.close();
    }
  }, 180_000);

  it('a page that asked that team to stop comes back (nostart) after it stopped there: it is told the team stopped, and no host is started there', async () => {
    expect(stoppedDir, 'the test before stopped the team').not.toBe('');
    const url = /(http:\/\/\S+token=\S+)/.exec(out)![1]!;
    const v = await TermView.overWebSocket(url, '&nostart=1');
    try {
      const closed = await waitFor(() => v.events.find((e): e is Extract<HostEvent, { type: 'host_closed' }> => e.type === 'host_closed'), 'the view told the team stopped', 60_000);
      expect(closed.reason).toBe('the team was stopped while this page was reconnecting');
      expect(procs().filter((p) => p.uid === m.user(USER).uid && p.cmdline.includes('host') && p.cmdline.includes(stoppedDir) && !p.cmdline.includes('--stop'))).toEqual([]);
    } finally {
      v.close();
    }
  }, 120_000);
});
