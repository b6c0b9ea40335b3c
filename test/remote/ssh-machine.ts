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
import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { openAncestors } from './open-ancestors.js';
import { parentOf } from './procs.js';

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

/**
 * useradd and usermod, retried while another one (a parallel test file, another run) holds the lock of
 * /etc/passwd or /etc/shadow: they refuse at once ("cannot lock /etc/passwd; try again later").
 */
function account(cmd: string, args: string[], done: () => boolean): void {
  const end = Date.now() + 20_000;
  while (!done()) {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    if (r.status === 0 || done()) return;
    if (!/cannot lock|try again/i.test(r.stderr) || Date.now() > end) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr.trim()}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50 + Math.random() * 100);
  }
}

const passwordField = (name: string): string | undefined =>
  fs.readFileSync('/etc/shadow', 'utf8').split('\n').find((l) => l.startsWith(`${name}:`))?.split(':')[1];

/** Made once, reused (changed only when needed: users made by another run at the same moment are taken as they are). */
function ensureUser(name: string): RemoteUser {
  account('useradd', ['-m', '-s', '/bin/bash', name], () => userInfo(name) !== null);
  // useradd locks the password (`!`): sshd without PAM refuses a locked account even with a key.
  account('usermod', ['-p', '*', name], () => passwordField(name) === '*');
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

/** A host of the user's for `ws` runs (or was killed): its socket's link in the lease dir (runtime-dir.ts: a hash of the real path). */
function hostLinked(u: RemoteUser, ws: string): boolean {
  try {
    return fs.existsSync(`/tmp/thclaws-${u.uid}-leases/host-${createHash('sha256').update(fs.realpathSync(ws)).digest('hex').slice(0, 24)}.sock`);
  } catch {
    return false; // the folder is gone
  }
}

const pidsWithParent = (ppid: number): number[] =>
  fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map(Number).filter((pid) => parentOf(pid) === ppid);

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
  /** runuser's argv for a command as the user, in a clean environment with its HOME. */
  const asUser = (user: string, cmd: string | string[], extra: Record<string, string> = {}): string[] => {
    const u = byName(user);
    const argv = typeof cmd === 'string' ? ['sh', '-c', cmd] : cmd;
    const env = ['HOME=' + u.home, `USER=${u.name}`, `LOGNAME=${u.name}`, `PATH=${REMOTE_PATH}`, ...Object.entries(extra).map(([k, v]) => `${k}=${v}`)];
    return ['-u', u.name, '--', 'env', '-i', ...env, ...argv];
  };
  const run: SshMachine['run'] = (user, cmd, o = {}) => {
    const r = spawnSync('runuser', asUser(user, cmd, o.env), { cwd: '/', encoding: 'utf8', input: o.input ?? '' });
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
      // All at once, and only where a host was started (its lease link is there): a loaded machine takes seconds per CLI start.
      const gone = made.splice(0);
      await Promise.all(gone.filter(([user, ws]) => hostLinked(byName(user), ws)).map(([user, ws]) =>
        new Promise((r) => execFile('runuser', asUser(user, [bin, 'host', '--stop', '--force', '--dir', ws]), { cwd: '/' }, r))));
      for (const [, , top] of gone) fs.rmSync(top, { recursive: true, force: true });
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
