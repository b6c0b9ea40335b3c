/**
 * Keys stay where the team runs, and the remote's doctor, with real processes (a private sshd on 127.0.0.1, a
 * second local user as "the other machine"): by default the remote lead gets nothing of this machine's key;
 * `--use-my-key` holds it in the remote host's memory (the fake Messages API sees it from the remote lead), never
 * on a command line or in a file there, and in no process's environment but this dashboard's (where the person put
 * it) and the remote host's agents'. `thclaws doctor --remote` prints the remote's own checks, labelled; the ssh
 * command comes from the user's settings, never from a project's.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostEvent } from '../../src/contract/api.js';
import { LEAD } from '../../src/core/store/index.js';
import { FakeAnthropic } from '../agent/fake-anthropic.js';
import { THCLAWS, waitFor } from '../desktop/helpers.js';
import { TermView } from '../desktop/term-view.js';
import { procs, descends } from './procs.js';
import { skipReason, startSshMachine, type SshMachine } from './ssh-machine.js';

const execFileP = promisify(execFile);
const skip = skipReason();
const USER = 'thcr8';
const KEY = 'sk-ant-api03-LaptopOnly0123456789abcdefghij_-RmTe';

function filesHolding(dir: string, needle: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => {
    const p = path.join(e.parentPath, e.name);
    try {
      return e.isFile() && fs.readFileSync(p).includes(needle) ? [p] : [];
    } catch {
      return [];
    }
  });
}

describe.skipIf(skip)('a team on another machine: whose key, and what the remote can do', () => {
  let m: SshMachine;
  const fake = new FakeAnthropic();
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-rkey-home-'));
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_RUNTIME_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-rkey-rt-')) };
  for (const k of Object.keys(env)) if (k.startsWith('ANTHROPIC_')) delete env[k];
  let dash: ChildProcess | null = null;

  beforeAll(async () => {
    m = await startSshMachine({ users: ['thcr7', 'thcr8'] });
    await fake.start();
    fake.fallback = { text: 'REMOTE LEAD USED A KEY' };
  }, 120_000);

  afterAll(async () => {
    if (dash && dash.exitCode === null) dash.kill('SIGKILL');
    await m?.close();
    await fake.close();
    fs.rmSync(home, { recursive: true, force: true });
  }, 60_000);

  /** The remote program: thclaws pointed at the fake Messages API (the remote's own environment, set there). */
  const wrapper = (ws: string) => {
    const file = path.join(ws, 'thclaws-fake-api');
    const r = m.run(USER, `printf '#!/bin/sh\\nexport ANTHROPIC_BASE_URL=${fake.url}\\nexec ${m.bin} "$@"\\n' > ${file} && chmod 700 ${file} && cd ${ws} && git init -q && mkdir -p .thclaws && echo '{"teamEnabled":true}' > .thclaws/settings.json`);
    expect(r.status, r.stderr).toBe(0);
    return file;
  };

  it('--use-my-key: the remote lead spends this machine\'s key, held in the remote host\'s memory only', async () => {
    const ws = m.workspace(USER);
    const bin = wrapper(ws);
    let out = '';
    dash = spawn(THCLAWS, ['dashboard', '--remote', m.url(USER, ws), '--remote-bin', bin, '--use-my-key', '--port', '0'], { env: { ...env, THCLAWS_SSH: m.ssh, ANTHROPIC_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    dash.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    dash.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const [, url, hostPid] = await waitFor(() => /(http:\/\/\S+token=\S+)[\s\S]*\(host pid (\d+) there\)/.exec(out), `the dashboard's URL (${out})`, 90_000);
    const v = await TermView.overWebSocket(url!);
    try {
      v.attachAll([LEAD]);
      const lead = await waitFor(() => v.pid(LEAD), 'the remote lead running (it had a key)', 90_000);
      await waitFor(async () => (await v.text(LEAD)).includes('thclaws>'), 'the remote lead prompt', 60_000);
      v.fire({ type: 'input', agent: LEAD, data: 'use the key\r' });
      await waitFor(async () => (await v.text(LEAD)).includes('REMOTE LEAD USED A KEY'), 'the remote lead answering through the fake API', 60_000);
      const calls = fake.requests.filter((r) => r.url.startsWith('/v1/messages'));
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.map((r) => String(r.headers['x-api-key'] ?? r.headers.authorization).replace(/^Bearer /, ''))).toEqual(calls.map(() => KEY));

      const host = Number(hostPid);
      expect(procs().filter((p) => p.cmdline.includes(KEY)).map((p) => p.pid), 'no command line holds the key').toEqual([]);
      const withKey = () => procs().filter((p) => p.environ().includes(KEY)).map((p) => p.pid);
      // This dashboard (the person put it in its environment) and the remote host's agents: no one else, not ssh, not the host.
      const strays = () => withKey().filter((pid) => pid !== dash!.pid && !descends(pid, host));
      await waitFor(() => strays().length === 0, `only this dashboard and the remote agents holding the key (not: ${strays().join(', ')})`, 20_000);
      expect(withKey()).toContain(lead);
      expect(withKey()).not.toContain(host);
      expect(filesHolding(m.user(USER).home, KEY), 'no file on the remote holds the key').toEqual([]);
    } finally {
      v.close();
      dash.kill('SIGTERM');
    }
  }, 300_000);

  it('by default nothing local is sent: a remote without a key of its own waits for one', async () => {
    const ws = m.workspace(USER);
    const bin = wrapper(ws);
    let out = '';
    const d = spawn(THCLAWS, ['dashboard', '--remote', m.url(USER, ws), '--remote-bin', bin, '--port', '0'], { env: { ...env, THCLAWS_SSH: m.ssh, ANTHROPIC_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    dash = d;
    d.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    const [, url, hostPid] = await waitFor(() => /(http:\/\/\S+token=\S+)[\s\S]*\(host pid (\d+) there\)/.exec(out), `the dashboard's URL (${out})`, 90_000);
    const v = await TermView.overWebSocket(url!);
    try {
      v.attachAll([LEAD]);
      const setup = await waitFor(() => v.events.filter((e) => e.type === 'setup').at(-1), 'the remote host\'s setup view', 60_000);
      expect(setup).toMatchObject({ setup: { needs_key: true } });
      expect(procs().filter((p) => descends(p.pid, Number(hostPid)) || p.pid === Number(hostPid)).filter((p) => p.environ().includes(KEY))).toEqual([]);
    } finally {
      v.close();
      d.kill('SIGTERM');
    }
  }, 180_000);

  it('a remote opened from the page with "use my key there" gets this dashboard\'s key; without it, none', async () => {
    const first = m.workspace(USER);
    wrapper(first);
    const plain = m.workspace(USER);
    const mine = m.workspace(USER);
    const bin = wrapper(plain);
    wrapper(mine);
    let out = '';
    const d = spawn(THCLAWS, ['dashboard', '--remote', m.url(USER, first), '--remote-bin', bin, '--port', '0'], { env: { ...env, THCLAWS_SSH: m.ssh, ANTHROPIC_API_KEY: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    dash = d;
    d.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    const [, url] = await waitFor(() => /(http:\/\/\S+token=\S+)[\s\S]*\(host pid \d+ there\)/.exec(out), `the dashboard's URL (${out})`, 90_000);
    const v = await TermView.overWebSocket(url!);
    try {
      v.attachAll([]);
      const setupOf = (dir: string) => {
        const at = v.events.map((e) => e.type === 'workspace' && e.workspace.dir === dir).lastIndexOf(true);
        return at < 0 ? undefined : v.events.slice(at).filter((e): e is Extract<HostEvent, { type: 'setup' }> => e.type === 'setup').at(-1)?.setup;
      };
      expect(await v.request({ type: 'open_workspace', dir: m.url(USER, plain) })).toMatchObject({ ok: true });
      expect(await waitFor(() => setupOf(plain), 'the first remote folder\'s setup')).toMatchObject({ needs_key: true });
      expect(await v.request({ type: 'open_workspace', dir: m.url(USER, mine), use_my_key: true })).toMatchObject({ ok: true });
      await waitFor(() => setupOf(mine)?.needs_key === false, 'the folder opened with "use my key there" holding the key', 60_000);
      expect(setupOf(mine)).toMatchObject({ key: { last4: 'RmTe' } });
    } finally {
      v.close();
      d.kill('SIGTERM');
    }
  }, 180_000);

  it('doctor --remote: the remote\'s own checks, labelled; the ssh command from the user settings, never the project\'s; no thclaws there is one line', async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-rdoc-proj-'));
    const marker = path.join(project, 'project-ssh-ran');
    fs.mkdirSync(path.join(project, '.thclaws'));
    fs.writeFileSync(path.join(project, '.thclaws', 'settings.json'), JSON.stringify({ remote: { ssh: `sh -c 'touch ${marker}'` } }));
    fs.mkdirSync(path.join(home, '.config', 'thclaws'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config', 'thclaws', 'settings.json'), JSON.stringify({ remote: { ssh: m.ssh, bin: m.bin } }));
    try {
      const ws = m.workspace(USER);
      const r = await execFileP(THCLAWS, ['doctor', '--remote', m.url(USER, ws)], { env, cwd: project }).then((x) => ({ code: 0, ...x }), (e: { code: number; stdout: string; stderr: string }) => e);
      expect([0, 1], r.stderr).toContain(r.code);
      expect(r.stdout).toMatch(new RegExp(`^thclaws doctor on ${USER} \\(through ssh\\):\\n`));
      expect(r.stdout).toMatch(new RegExp(`^${USER}: ok +git `, 'm'));
      expect(fs.existsSync(marker), "the project's remote.ssh never runs").toBe(false);

      const none = await execFileP(THCLAWS, ['doctor', '--remote', m.url(USER, ws), '--remote-bin', 'thclaws'], { env, cwd: project }).then((x) => ({ code: 0, ...x }), (e: { code: number; stdout: string; stderr: string }) => e);
      expect(none.code).toBe(2);
      // The remote shell's own words (its stderr, through ssh), not a guess.
      expect(none.stderr).toMatch(new RegExp(`^thclaws: ${USER} has no thclaws \\(bash: .*thclaws: command not found\\): install it there with npm i -g thclaws@\\S+, or name it with --remote-bin\\n$`));
    } finally {
      fs.rmSync(path.join(home, '.config', 'thclaws', 'settings.json'), { force: true });
      fs.rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);
});
