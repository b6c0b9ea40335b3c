/**
 * What a hostile review found in the remote dashboard's link (ssh-link.ts), with a real sshd on 127.0.0.1 and a
 * local user as the other machine: a remote login's noise on stdout, and a remote side killed before the hello.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRemoteHost, type RemoteHostConnection } from '../../src/main/daemon/ssh-link.js';
import { parseRemoteUrl } from '../../src/main/daemon/remote-url.js';
import { uidOf } from './procs.js';
import { skipReason, startSshMachine, type SshMachine } from './ssh-machine.js';

const reason = skipReason();

describe.skipIf(reason !== null)(reason ?? 'the remote link under attack', () => {
  let m: SshMachine;
  const conns: RemoteHostConnection[] = [];
  beforeAll(async () => {
    m = await startSshMachine({ users: ['thcr10', 'thcr11'] });
  }, 60_000);
  afterAll(async () => {
    for (const c of conns) c.close();
    await m?.close();
  }, 60_000);

  /** An executable script in a new workspace of the user's, written as that user. */
  const script = (user: string, name: string, text: string): string => {
    const file = path.join(m.workspace(user), name);
    expect(m.run(user, ['sh', '-c', `cat > '${file}' && chmod 755 '${file}'`], { input: text }).status).toBe(0);
    return file;
  };

  // What a `.bashrc` prints: a line that happens to be JSON, an object of another shape, a prompt without its newline.
  for (const [what, banner] of [['a number', 'echo 2026'], ['a JSON object of its own', `echo '{"motd":"hi"}'`], ['no newline', `printf 'Last login: today'`]] as const) {
    it(`a login banner that is ${what} before the bridge: skipped, the host reached`, async () => {
      const chatty = script('thcr10', 'chatty', `#!/bin/sh\n${banner}\nexec ${m.bin} "$@"\n`);
      const ws = m.workspace('thcr10');
      const c = await connectRemoteHost(parseRemoteUrl(m.url('thcr10', ws)), { startLead: false }, { client: 'test', ssh: m.sshWords, bin: chatty, timeoutMs: 15_000 });
      conns.push(c);
      expect([c.workspace, uidOf(c.pid)]).toEqual([ws, m.user('thcr10').uid]);
    }, 60_000);
  }

  // The bridge killed there before the hello (ssh then exits 255, as for its own failures, but says nothing; at
  // LogLevel INFO, a person's default, only its note on a new host key).
  for (const level of ['ERROR', 'INFO']) {
    it(`the remote side killed before the hello (ssh LogLevel ${level}): not "cannot reach", which sends the person after the network`, async () => {
      const killed = script('thcr10', 'killed', '#!/bin/sh\nkill -9 $$\n');
      const err = await connectRemoteHost(parseRemoteUrl(m.url('thcr10', '~')), {}, { client: 'test', ssh: [...m.sshWords, '-o', `LogLevel=${level}`], bin: killed }).catch((e: Error) => e);
      expect(String(err)).toBe('Error: thcr10: the ssh session ended before the host answered, and ssh gave no reason (ssh exit 255): was the remote side killed?');
    }, 30_000);
  }
});
