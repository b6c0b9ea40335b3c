/**
 * "Another machine" for real-process tests: local users (`thcr1`, `thcr2`…, each with its own 0700 home) reached
 * through a private OpenSSH server on 127.0.0.1 that this fixture starts, with a host key and a client key made
 * for the run. The client side is what a person would name in THCLAWS_SSH: `ssh -F <config>` whose Host aliases
 * are the users. Needs root (users, runuser, sshd); `skipReason()` says why not in one line.
 *
 * Users are kept between runs (made once, reused; other test files may use them at the same time), so all that
 * is per run lives in this fixture's own dir: sshd's config, keys and `AuthorizedKeysFile` (read with
 * `StrictModes no`, this sshd's only: the dir is under /tmp, which StrictModes would refuse), and the
 * workspaces it makes, whose hosts close() stops. The folders above the checkout get `o+x` while needed
 * (open-ancestors.ts), so the users can run its `bin/thclaws`.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openAncestors } from './open-ancestors.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SSHD = '/usr/sbin/sshd';
/** The remote users' PATH (as sshd gives a session without PAM): no thclaws on it. */
const REMOTE_PATH = '/usr/local/bin:/usr/bin:/bin';

export interface RemoteUser {
  name: string;
  /** The Host alias of the client config: `ssh -F <config> <alias>` logs in as this user. */
  alias: string;
  home: string;
  uid: number;
  gid: number;
}

export interface SshMachine {
  /** `ssh -F <config>`: the command string a person puts in THCLAWS_SSH. */
  ssh: string;
  /** The same, as words (connectRemoteHost's `ssh` option). */
  sshWords: string[];
  port: number;
  users: RemoteUser[];
  user(name?: string): RemoteUser;
  /** `ssh://<alias>/<dir>` for a user's folder (`~/x` kept as given). */
  url(user: string, dir: string): string;
  /** This checkout's `bin/thclaws`, which the remote users can run (absolute: not on their PATH). */
  bin: string;
  /** Runs a command as the user (runuser, a clean environment with its HOME); a string goes through `sh -c`. */
  run(user: string, cmd: string | string[], opts?: { input?: string; env?: Record<string, string> }): { status: number; stdout: string; stderr: string };
  /** A new empty folder in the user's home (0700, theirs; `name`: its last part); close() stops its host and removes it. */
  workspace(user: string, name?: string): string;
  close(): Promise<void>;
}

const has = (p: string) => fs.existsSync(p);
const which = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Why the remote tests cannot run here (one line), or null. */
export function skipReason(): string | null {
  if (process.platform !== 'linux') return 'remote tests: Linux only (local users and sshd)';
  if (process.getuid?.() !== 0) return 'remote tests: not root (they make local users and start sshd)';
  if (!has(SSHD)) return `remote tests: no ${SSHD} (apt-get install openssh-server)`;
  for (const cmd of ['ssh', 'ssh-keygen', 'useradd', 'usermod', 'runuser']) if (!which(cmd)) return `remote tests: no ${cmd} on PATH`;
  if (!has('/usr/bin/node')) return 'remote tests: no /usr/bin/node for the remote users';
  return null;
}

function userInfo(name: string): RemoteUser | null {
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const f = line.split(':');
  return { name, alias: name, uid: Number(f[2]), gid: Number(f[3]), home: f[5]! };
}

/** Made once, reused; a user made by another run at the same moment is taken as is. */
function ensureUser(name: string): RemoteUser {
  if (!userInfo(name)) {
    const r = spawnSync('useradd', ['-m', '-s', '/bin/bash', name], { encoding: 'utf8' });
    if (r.status !== 0 && !userInfo(name)) throw new Error(`useradd ${name}: ${r.stderr.trim()}`);
  }
  // useradd locks the password (`!`): sshd without PAM refuses a locked account even with a key.
  execFileSync('usermod', ['-p', '*', name]);
  const u = userInfo(name)!;
  fs.chmodSync(u.home, 0o700);
  return u;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function listening(port: number, sshd: ChildProcess, log: string, deadline: number): Promise<void> {
  for (;;) {
    if (sshd.exitCode !== null) throw new Error(`sshd exited (${sshd.exitCode}): ${fs.readFileSync(log, 'utf8').trim().split('\n').at(-1)}`);
    const ok = await new Promise<boolean>((r) => {
      const c = net.connect(port, '127.0.0.1', () => (c.destroy(), r(true)));
      c.once('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port} in time`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pidsWithParent = (ppid: number): number[] =>
  fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      // Field 4 of stat, after the command name in parentheses (which may hold spaces).
      return Number(fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === ppid;
    } catch {
      return false;
    }
  }).map(Number);

/**
 * `users`: each test file names its own (vitest runs files in parallel, and a file may write a user's home: its
 * settings, .gitconfig, .bashrc); the default pair is ssh-link's. e2e and the bench run alone.
 */
export async function startSshMachine(opts: { users?: string[] } = {}): Promise<SshMachine> {
  const reason = skipReason();
  if (reason) throw new Error(reason);
  const users = (opts.users ?? ['thcr1', 'thcr2']).map(ensureUser);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thcr-sshd-'));
  // Entered by the users' sshd session (it reads their authorized keys as them); the private keys stay 0600.
  fs.chmodSync(dir, 0o755);
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const keygen = (file: string) => execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'thclaws-test', '-f', file]);
  keygen(path.join(dir, 'host_ed25519'));
  keygen(path.join(dir, 'client_ed25519'));
  fs.mkdirSync(path.join(dir, 'keys'), { mode: 0o755 });
  const pub = fs.readFileSync(path.join(dir, 'client_ed25519.pub'), 'utf8');
  for (const u of users) fs.writeFileSync(path.join(dir, 'keys', u.name), pub, { mode: 0o644 });
  const log = path.join(dir, 'sshd.log');
  let sshd: ChildProcess | null = null;
  let port = 0;
  for (let attempt = 0; !sshd; attempt++) {
    port = await freePort();
    const config = path.join(dir, 'sshd_config');
    fs.writeFileSync(config, [
      `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${dir}/host_ed25519`, `PidFile ${dir}/sshd.pid`,
      'UsePAM no', 'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'PubkeyAuthentication yes',
      `AuthorizedKeysFile ${dir}/keys/%u`, 'StrictModes no', `AllowUsers ${users.map((u) => u.name).join(' ')}`,
      'PermitRootLogin no',
      // Remote forwarding only: a remote teammate's store is the lead host's socket, forwarded with -R (OpenSSH 9.2 refuses
      // a Unix-socket -R too under "AllowTcpForwarding no"). Nothing listens unless a client asks.
      'AllowTcpForwarding remote', 'X11Forwarding no', 'PrintMotd no', 'LogLevel VERBOSE', '',
    ].join('\n'));
    const child = spawn(SSHD, ['-D', '-f', config, '-E', log], { stdio: 'ignore' });
    try {
      await listening(port, child, log, Date.now() + 10_000);
      sshd = child;
    } catch (err) {
      child.kill('SIGKILL');
      // Another process took the port between freePort and sshd's bind: once more on another.
      if (attempt >= 2) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw err;
      }
    }
  }
  let release: () => void;
  try {
    release = openAncestors([ROOT, fs.realpathSync(path.join(ROOT, 'node_modules'))]);
  } catch (err) {
    sshd.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const clientConfig = path.join(dir, 'ssh_config');
  fs.writeFileSync(clientConfig, [
    ...users.flatMap((u) => [`Host ${u.alias}`, '  HostName 127.0.0.1', `  Port ${port}`, `  User ${u.name}`]),
    'Host *', `  IdentityFile ${dir}/client_ed25519`, '  IdentitiesOnly yes', '  StrictHostKeyChecking no',
    '  UserKnownHostsFile /dev/null', '  BatchMode yes', '  LogLevel ERROR', '  ConnectTimeout 10', '',
  ].join('\n'), { mode: 0o644 });

  const byName = (name?: string) => {
    const u = name ? users.find((x) => x.name === name) : users[0];
    if (!u) throw new Error(`no test user ${name}`);
    return u;
  };
  const run: SshMachine['run'] = (user, cmd, o = {}) => {
    const u = byName(user);
    const argv = typeof cmd === 'string' ? ['sh', '-c', cmd] : cmd;
    const env = ['HOME=' + u.home, `USER=${u.name}`, `LOGNAME=${u.name}`, `PATH=${REMOTE_PATH}`, ...Object.entries(o.env ?? {}).map(([k, v]) => `${k}=${v}`)];
    const r = spawnSync('runuser', ['-u', u.name, '--', 'env', '-i', ...env, ...argv], { cwd: '/', encoding: 'utf8', input: o.input ?? '' });
    return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  };
  const bin = path.join(ROOT, 'bin', 'thclaws');
  const made: Array<[user: string, ws: string, top: string]> = [];
  return {
    ssh: `ssh -F ${clientConfig}`,
    sshWords: ['ssh', '-F', clientConfig],
    port,
    users,
    user: byName,
    url: (user, d) => `ssh://${byName(user).alias}${d.startsWith('/') ? '' : '/'}${d.split('/').map(encodeURIComponent).join('/').replace(/%7E/gi, '~')}`,
    bin,
    run,
    workspace: (user, name) => {
      const top = path.join(byName(user).home, `ws-${randomBytes(4).toString('hex')}`);
      const ws = name ? path.join(top, name) : top;
      const r = run(user, ['mkdir', '-p', '-m', '700', top, ws]);
      if (r.status !== 0) throw new Error(`mkdir ${ws} as ${user}: ${r.stderr.trim()}`);
      made.push([user, ws, top]);
      return ws;
    },
    close: async () => {
      // Each workspace's host (and so its agents), stopped by its own user: nothing of this run keeps running.
      for (const [user, ws, top] of made.splice(0)) {
        run(user, [bin, 'host', '--stop', '--force', '--dir', ws]);
        fs.rmSync(top, { recursive: true, force: true });
      }
      if (sshd && sshd.exitCode === null) {
        // Sessions still open are the listener's children: ended with it (by pid, these are this fixture's).
        for (const pid of pidsWithParent(sshd.pid!)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // ended by itself
          }
        }
        const exited = new Promise((r) => sshd!.once('exit', r));
        sshd.kill('SIGTERM');
        await exited;
      }
      release();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
