/**
 * The link drops, the team does not, with real processes: a lead (scripted provider) runs in the host of a
 * workspace on another machine (a second local user behind a private sshd). SIGKILL of the local ssh leaves the
 * host and the lead running there (the bridge and the ssh session end); connecting again reaches the same host
 * pid and the same lead pid, and attaching the lead's terminal restores its screen with what it printed before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD } from '../../src/core/store/index.js';
import { connectRemoteHost, type RemoteHostConnection } from '../../src/main/daemon/ssh-link.js';
import { parseRemoteUrl } from '../../src/main/daemon/remote-url.js';
import { waitFor } from '../desktop/helpers.js';
import { TermView } from '../desktop/term-view.js';
import { bridgeOf, uidOf } from './procs.js';
import { skipReason, startSshMachine, type SshMachine } from './ssh-machine.js';

const reason = skipReason();

describe.skipIf(reason !== null)(reason ?? 'a dropped ssh link leaves the remote team running', () => {
  let m: SshMachine;
  const views: TermView[] = [];
  const conns: RemoteHostConnection[] = [];
  beforeAll(async () => {
    m = await startSshMachine({ users: ['thcr3'] });
  }, 60_000);
  afterAll(async () => {
    for (const v of views) v.close();
    for (const c of conns) c.close();
    await m?.close();
  }, 60_000);

  it('SIGKILL of the local ssh: the remote host and its lead keep running; connecting again gives the same pids and the restored screen', async () => {
    const u = m.user('thcr3');
    const ws = m.workspace(u.name);
    const script = path.join(ws, 'lead.json');
    const rules = { rules: [{ match: 'say hello', turns: [{ text: 'REMOTE HELLO 4242' }] }], fallback: [{ text: 'OK' }] };
    expect(m.run(u.name, ['sh', '-c', `cat > '${script}'`], { input: JSON.stringify(rules) }).status).toBe(0);
    const remote = parseRemoteUrl(m.url(u.name, ws));
    const open = async () => {
      const c = await connectRemoteHost(remote, { leadScript: script, idleMs: 0 }, { client: 'test', ssh: m.sshWords, bin: m.bin, timeoutMs: 60_000 });
      conns.push(c);
      const v = TermView.over(c);
      views.push(v);
      v.attachAll([LEAD]);
      return { c, v };
    };

    const first = await open();
    const lead = await waitFor(() => first.v.pid(LEAD), 'the lead running in the remote host', 60_000);
    expect([uidOf(first.c.pid), uidOf(lead)]).toEqual([u.uid, u.uid]);
    await waitFor(async () => (await first.v.text(LEAD)).includes('thclaws>'), 'the lead prompt', 60_000);
    first.v.fire({ type: 'input', agent: LEAD, data: 'say hello\r' });
    await waitFor(async () => (await first.v.text(LEAD)).includes('REMOTE HELLO 4242'), "the lead's answer, streamed over ssh", 60_000);
    const bridge = bridgeOf(ws)!;
    expect(bridge?.uid).toBe(u.uid);

    const closed = new Promise<void>((r) => first.c.onClose(r));
    process.kill(first.c.sshPid, 'SIGKILL');
    await closed;
    // The link's far end goes with it (no bridge left behind); the team does not.
    await waitFor(() => uidOf(bridge.pid) === -1, 'the bridge of the dropped link gone', 15_000);
    expect([uidOf(first.c.pid), uidOf(lead)]).toEqual([u.uid, u.uid]);

    const second = await open();
    expect(second.c.pid).toBe(first.c.pid);
    expect(await waitFor(() => second.v.pid(LEAD), 'the lead in the roster again')).toBe(lead);
    // The screen restored on attach holds what the lead printed before the link dropped.
    await waitFor(async () => (await second.v.text(LEAD)).includes('REMOTE HELLO 4242'), "the lead's earlier output in the restored screen", 30_000);
    expect(second.v.events.some((e) => e.type === 'replay' && e.agent === LEAD)).toBe(true);
    expect(fs.existsSync(`/proc/${lead}`)).toBe(true);
  }, 180_000);
});
