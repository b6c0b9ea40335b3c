/**
 * A workspace on another machine over the person's own ssh, with real processes: a private sshd on 127.0.0.1,
 * a second local user as the other machine. The host runs there as that user, its socket in that user's
 * runtime dir, nothing of it on TCP; each failure before the welcome is one line naming the remote, within the
 * timeout; no key of this machine reaches any command line on either side (nor the remote's environment).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PROTOCOL, type HostEvent } from '../../src/contract/api.js';
import { VERSION } from '../../src/cli/version.js';
import { connectRemoteHost, type RemoteHostConnection } from '../../src/main/daemon/ssh-link.js';
import { parseRemoteUrl } from '../../src/main/daemon/remote-url.js';
import { waitFor } from '../desktop/helpers.js';
import { bridgeOf, listeningTcpInodes, parentOf, procs, socketInodes, uidOf } from './procs.js';
import { skipReason, startSshMachine, type SshMachine } from './ssh-machine.js';

const reason = skipReason();

describe.skipIf(reason !== null)(reason ?? 'the host of a workspace on another machine, over ssh', () => {
  let m: SshMachine;
  const conns: RemoteHostConnection[] = [];
  beforeAll(async () => {
    m = await startSshMachine();
  }, 60_000);
  afterAll(async () => {
    for (const c of conns) c.close();
    await m?.close();
  }, 60_000);
  const connect = async (...args: Parameters<typeof connectRemoteHost>) => {
    const c = await connectRemoteHost(...args);
    conns.push(c);
    return c;
  };

  it('runs the host there as the ssh user: its uid, its socket in that user\'s runtime dir, nothing on TCP; requests cross; the user cannot read this machine\'s workspace', async () => {
    const local = fs.mkdtempSync(path.join(os.tmpdir(), 'thcr-local-'));
    const u = m.user('thcr1');
    expect(m.run(u.name, ['ls', local]).status).not.toBe(0);
    const ws = m.workspace(u.name);
    const c = await connect(parseRemoteUrl(m.url(u.name, ws)), { startLead: false }, { client: 'test', ssh: m.sshWords, bin: m.bin });
    expect([c.transport, c.workspace]).toEqual(['ssh', ws]);
    expect(uidOf(c.pid)).toBe(u.uid);
    const key = createHash('sha256').update(ws).digest('hex').slice(0, 24);
    const socket = fs.readlinkSync(`/tmp/thclaws-${u.uid}-leases/host-${key}.sock`);
    expect(socket).toBe(`/tmp/thclaws-${u.uid}/host-${key}.sock`);
    expect([fs.lstatSync(socket).isSocket(), fs.lstatSync(socket).uid]).toEqual([true, u.uid]);
    const bridge = bridgeOf(ws);
    expect(bridge?.uid, 'the bridge (thclaws host connect --stdio) runs there, as the user').toBe(u.uid);
    // The ssh session's variables (SSH_CONNECTION, a forwarded agent's socket) end with it: the host outlives it without them.
    const hostEnv = fs.readFileSync(`/proc/${c.pid}/environ`, 'utf8').split('\0');
    expect(hostEnv.filter((kv) => kv.startsWith('SSH_'))).toEqual([]);
    // …and keeps the rest of the user's own environment (its home, its PATH: what its agents run with).
    expect(hostEnv).toEqual(expect.arrayContaining([`HOME=${u.home}`, `USER=${u.name}`, expect.stringMatching(/^PATH=\//)]));
    expect(bridge!.environ()).toContain('SSH_CONNECTION=');
    const listening = listeningTcpInodes();
    for (const pid of [c.pid, bridge!.pid]) expect(socketInodes(pid).filter((i) => listening.has(i))).toEqual([]);
    const events: HostEvent[] = [];
    c.onEvent((e) => events.push(e));
    c.send({ id: 7, type: 'subscribe' });
    await waitFor(() => events.find((e) => e.type === 'reply' && e.id === 7 && e.ok), 'the reply to subscribe, over ssh');
    fs.rmSync(local, { recursive: true });
  }, 60_000);

  it("a folder whose name has a space and a ' reaches its host (each word quoted for the remote shell); ~/ is the remote user's home", async () => {
    const u = m.user('thcr2');
    const odd = m.workspace(u.name, "it's a ws");
    const c = await connect(parseRemoteUrl(m.url(u.name, `~/${path.relative(u.home, odd)}`)), { startLead: false }, { client: 'test', ssh: m.sshWords, bin: m.bin });
    expect([c.workspace, uidOf(c.pid)]).toEqual([odd, u.uid]);
    const bridge = procs().find((p) => p.uid === u.uid && p.cmdline.includes(`${path.basename(path.dirname(odd))}/it's a ws\0`) && p.cmdline.includes('\0connect\0'))!;
    expect(bridge).toBeTruthy();
    c.close();
    // close() ends ssh and the bridge there; the host stays.
    await waitFor(() => uidOf(c.sshPid) === -1 && uidOf(bridge.pid) === -1, 'the ssh process and the bridge ended by close()', 10_000);
    expect(uidOf(c.pid)).toBe(u.uid);
  }, 60_000);

  it('the remote host exits (stopped there): the link closes by itself, ssh and the bridge with it', async () => {
    const u = m.user('thcr1');
    const ws = m.workspace(u.name);
    const c = await connect(parseRemoteUrl(m.url(u.name, ws)), { startLead: false }, { client: 'test', ssh: m.sshWords, bin: m.bin });
    const closed = new Promise<void>((r) => c.onClose(r));
    expect(m.run(u.name, [m.bin, 'host', '--stop', '--force', '--dir', ws]).status).toBe(0);
    await closed;
    await waitFor(() => uidOf(c.sshPid) === -1 && !procs().some((p) => p.uid === u.uid && p.cmdline.includes(`\0${ws}\0`)), 'ssh, the bridge and the host all gone', 10_000);
  }, 60_000);

  it('a folder that is not there: the remote says so in one line, naming the remote', async () => {
    const err = await connectRemoteHost(parseRemoteUrl(m.url('thcr1', '~/no-such-folder')), {}, { client: 'test', ssh: m.sshWords, bin: m.bin }).catch((e: Error) => e);
    expect(String(err)).toBe(`Error: thcr1: no folder ${m.user('thcr1').home}/no-such-folder on ${os.hostname()}`);
  }, 30_000);

  it('a launch flag the remote refuses (a negative --idle-ms): its one line, naming the remote, no host started', async () => {
    const u = m.user('thcr1');
    const ws = m.workspace(u.name);
    const err = await connectRemoteHost(parseRemoteUrl(m.url(u.name, ws)), { startLead: false, idleMs: -1 }, { client: 'test', ssh: m.sshWords, bin: m.bin }).catch((e: Error) => e);
    expect(String(err)).toBe('Error: thcr1: invalid --idle-ms "-1"');
    expect(procs().some((p) => p.uid === u.uid && p.cmdline.includes(`\0host\0--dir\0${ws}\0`))).toBe(false);
  }, 30_000);

  it('a remote host that cannot start: the bridge says why (its exit code and log there) before the far end gives up', async () => {
    const u = m.user('thcr1');
    const ws = m.workspace(u.name);
    const key = createHash('sha256').update(ws).digest('hex').slice(0, 24);
    // A folder where the host's socket goes: every host started for this workspace exits 1 at once.
    const blocker = `/tmp/thclaws-${u.uid}/host-${key}.sock`;
    expect(m.run(u.name, ['mkdir', '-p', blocker]).status).toBe(0);
    try {
      const err = await connectRemoteHost(parseRemoteUrl(m.url(u.name, ws)), { startLead: false }, { client: 'test', ssh: m.sshWords, bin: m.bin, timeoutMs: 40_000 }).catch((e: Error) => e);
      expect(String(err)).toBe(`Error: thcr1: the host exited (code 1); see /tmp/thclaws-${u.uid}/host-${key}.log`);
    } finally {
      fs.rmSync(blocker, { recursive: true, force: true });
    }
  }, 60_000);

  it('a remote without thclaws on its PATH: one line naming it and what to install, well within the timeout', async () => {
    const ws = m.workspace('thcr1');
    const t0 = Date.now();
    const err = await connectRemoteHost(parseRemoteUrl(m.url('thcr1', ws)), {}, { client: 'test', ssh: m.sshWords, timeoutMs: 15_000 }).catch((e: Error) => e);
    expect(String(err)).toBe(`Error: thcr1 has no thclaws on its PATH: install it there (npm i -g thclaws@${VERSION}) or name it with --remote-bin`);
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 30_000);

  it('a remote thclaws that speaks another protocol: its refusal, naming the remote and the version to install', async () => {
    const ws = m.workspace('thcr1');
    const err = await connectRemoteHost(parseRemoteUrl(m.url('thcr1', ws)), { startLead: false }, { client: 'test', ssh: m.sshWords, bin: m.bin, protocol: HOST_PROTOCOL + 1 }).catch((e: Error) => e);
    expect(String(err)).toBe(`Error: thclaws on thcr1 speaks protocol ${HOST_PROTOCOL}, this one ${HOST_PROTOCOL + 1}: install the same version there (npm i -g thclaws@${VERSION}), or stop its host there (thclaws host --stop)`);
  }, 60_000);

  /** An executable script in a new workspace of the user's, written as that user. */
  const script = (user: string, name: string, text: string): string => {
    const file = path.join(m.workspace(user), name);
    expect(m.run(user, ['sh', '-c', `cat > '${file}' && chmod 755 '${file}'`], { input: text }).status).toBe(0);
    return file;
  };

  it('a thclaws from before `host connect` (a usage error there): the line to install this version', async () => {
    // What commander printed for `thclaws host connect --stdio` before the subcommand existed.
    const old = script('thcr1', 'old-thclaws', `#!/bin/sh\necho "error: unknown option '--stdio'" >&2\nexit 1\n`);
    const err = await connectRemoteHost(parseRemoteUrl(m.url('thcr1', '~')), {}, { client: 'test', ssh: m.sshWords, bin: old }).catch((e: Error) => e);
    expect(String(err)).toBe(`Error: thclaws on thcr1 is too old for a remote dashboard: install npm i -g thclaws@${VERSION} there`);
  }, 30_000);

  it('a remote that never answers: one line at the timeout, and the ssh it ran is gone', async () => {
    const mute = script('thcr1', 'mute', '#!/bin/sh\nexec cat > /dev/null\n');
    const t0 = Date.now();
    const err = await connectRemoteHost(parseRemoteUrl(m.url('thcr1', '~')), {}, { client: 'test', ssh: m.sshWords, bin: mute, timeoutMs: 3000 }).catch((e: Error) => e);
    expect(String(err)).toBe('Error: thcr1 did not answer over ssh in 3 s');
    expect(Date.now() - t0).toBeLessThan(8000);
    const config = m.sshWords[2]!;
    await waitFor(() => !procs().some((p) => p.cmdline.startsWith('ssh\0') && p.cmdline.includes(config) && p.cmdline.includes(mute)), 'the ssh of the timed-out connect gone', 10_000);
  }, 30_000);

  it('close() ends ssh even when the remote side ignores the end of its input (a wedged far end): within seconds', async () => {
    const pidFile = path.join(m.workspace('thcr1'), 'pid');
    const wedged = script('thcr1', 'wedged', `#!/bin/sh\necho $$ > '${pidFile}'\necho '{"type":"welcome","protocol":${HOST_PROTOCOL},"pid":1,"workspace":"/wedged"}'\nexec sleep 60\n`);
    const c = await connectRemoteHost(parseRemoteUrl(m.url('thcr1', '~')), {}, { client: 'test', ssh: m.sshWords, bin: wedged });
    try {
      expect(c.workspace).toBe('/wedged');
      let closed = false;
      c.onClose(() => (closed = true));
      c.close();
      await waitFor(() => closed && uidOf(c.sshPid) === -1, 'ssh ended and the link closed', 10_000);
    } finally {
      // The remote `sleep` this test started, by its pid.
      process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
  }, 30_000);

  it('a remote login that prints a banner on stdout before the bridge: the banner is skipped, the host reached', async () => {
    const chatty = script('thcr1', 'chatty', `#!/bin/sh\necho 'Welcome to box! Last login: today'\nexec ${m.bin} "$@"\n`);
    const ws = m.workspace('thcr1');
    const c = await connect(parseRemoteUrl(m.url('thcr1', ws)), { startLead: false }, { client: 'test', ssh: m.sshWords, bin: chatty });
    expect([c.workspace, uidOf(c.pid)]).toEqual([ws, m.user('thcr1').uid]);
  }, 60_000);

  it('ssh cannot reach the remote (nothing on that port): "cannot reach …" with ssh\'s own line', async () => {
    const err = await connectRemoteHost(parseRemoteUrl(`ssh://thcr1@127.0.0.1:1/~`), {}, { client: 'test', ssh: m.sshWords, bin: m.bin }).catch((e: Error) => e);
    expect(String(err)).toBe('Error: cannot reach thcr1@127.0.0.1:1 over ssh: ssh: connect to host 127.0.0.1 port 1: Connection refused');
  }, 30_000);

  it('no key of this machine on any command line on either side (ssh, the sshd session, the bridge, the remote host), nor in their environments', async () => {
    const secret = `sk-ant-api03-thcr-${randomBytes(6).toString('hex')}`;
    const u = m.user('thcr1');
    const ws = m.workspace(u.name);
    const c = await connect(parseRemoteUrl(m.url(u.name, ws)), { startLead: false }, { client: 'test', ssh: m.sshWords, bin: m.bin, env: { ...process.env, ANTHROPIC_API_KEY: secret, GITHUB_TOKEN: `${secret}-gh` } });
    const all = procs();
    const ssh = all.find((p) => p.pid === c.sshPid);
    const bridge = bridgeOf(ws);
    // The bridge's parent: the sshd session that runs the remote command (`sshd: thcr1@notty`).
    const session = all.find((p) => p.pid === parentOf(bridge?.pid ?? -1) && p.cmdline.startsWith(`sshd: ${u.name}`));
    const host = all.find((p) => p.pid === c.pid);
    // Each side's process is there to be looked at (the check below is not over an empty list).
    expect([ssh, session, bridge, host].map((p) => Boolean(p))).toEqual([true, true, true, true]);
    expect(all.filter((p) => p.cmdline.includes(secret)).map((p) => p.cmdline)).toEqual([]);
    for (const p of [ssh!, session!, bridge!, host!]) expect(p.environ().includes(secret), `${p.cmdline.split('\0')[0]}'s environment`).toBe(false);
  }, 60_000);
});
