/**
 * Teammates on other machines (docs/remote.md): the lead's side of a teammate on a host of the user's settings.
 * Its code goes over git on the person's own ssh (a clone under the host's `dir/<team>/<name>`, the lead's HEAD
 * pushed as `refs/thclaws/base`, its work fetched back as `refs/heads/team/<name>`); it is started by an ssh
 * that forwards the lead host's socket to a socket in its clone, its store then the host's (THCLAWS_TEAM_VIA).
 * The remote user never reads the lead's workspace, and no key is on any command line or in any file there.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { RemoteHost } from '../../contract/settings-schema.js';
import { teammateBranch } from '../../contract/branch.js';
import { gitOut } from '../../core/git.js';
import type { RemoteLaunch, RemotePrepare, RemoteTeammates } from '../../core/teams/remote-placement.js';
import { isSecretEnvName } from '../daemon/host-client.js';
import { parseRemoteUrl, shellQuote, sshCommand, type RemoteSpec } from '../daemon/remote-url.js';

export interface RemoteTeammatesOptions {
  /** The lead's repository. */
  root: string;
  hosts: () => Record<string, RemoteHost>;
  placement: () => 'local' | 'spread';
  /** The lead's host's socket: forwarded to each remote teammate (its store). */
  hostSocket: () => string;
  env?: NodeJS.ProcessEnv;
  /** Till a preparing ssh or git gives up (default 60 s). */
  timeoutMs?: number;
}

/** Where the lead's HEAD goes in a teammate's clone: never a branch, so never the one checked out there. */
const BASE_REF = 'refs/thclaws/base';
/** The ssh process's own variables from the host's environment: the person's agent, never a key. */
const SSH_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'TERM', 'TZ', 'TMPDIR', 'SSH_AUTH_SOCK'];
/** A dropped link is noticed within 45 s (ssh's keepalive over the encrypted channel). */
const KEEPALIVE = ['-o', 'ServerAliveInterval=15', '-o', 'ServerAliveCountMax=3'];

/** A host's `ssh` as ssh takes it (`[user@]host` or `ssh://[user@]host[:port]`), checked by parseRemoteUrl. */
export function sshTarget(name: string, h: RemoteHost): RemoteSpec {
  const url = /^ssh:\/\//i.test(h.ssh) ? `${/^ssh:\/\/[^/]*/i.exec(h.ssh)![0]}/~` : `${h.ssh}:~`;
  try {
    return parseRemoteUrl(url);
  } catch (err) {
    throw new Error(`host "${name}": ssh ${JSON.stringify(h.ssh)} is not [user@]host or ssh://[user@]host[:port] (${(err as Error).message})`);
  }
}

/** A path for the remote shell: `~/x` stays under that user's home (`"$HOME"/'x'`), anything else quoted. */
export function remotePath(p: string): string {
  if (p === '~') return '"$HOME"';
  if (p.startsWith('~/')) return `"$HOME"/${shellQuote(p.slice(2))}`;
  return shellQuote(p);
}

const sshTail = (t: RemoteSpec): string[] => [...(t.port ? ['-p', String(t.port)] : []), ...(t.user ? ['-l', t.user] : []), '--', t.host];
const gitUrl = (t: RemoteSpec, clone: string): string => `ssh://${t.label}${clone}`;
const lastLine = (s: string): string => s.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).at(-1) ?? '';

export class SshRemoteTeammates implements RemoteTeammates {
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly opts: RemoteTeammatesOptions) {
    // No credential reaches ssh or git (whose SendEnv could pass it on): the teammate gets the model's through its store.
    this.env = Object.fromEntries(Object.entries(opts.env ?? process.env).filter(([k]) => !isSecretEnvName(k)));
  }

  hosts(): Record<string, RemoteHost> {
    return this.opts.hosts();
  }

  placement(): 'local' | 'spread' {
    return this.opts.placement();
  }

  private ssh(): string[] {
    return sshCommand(this.opts.env ?? process.env);
  }

  private host(name: string): { h: RemoteHost; t: RemoteSpec } {
    const h = this.hosts()[name];
    if (!h) throw new Error(`unknown host "${name}" (user settings "hosts")`);
    return { h, t: sshTarget(name, h) };
  }

  /** Runs a command (ssh, git) to its end, with the environment freed of keys; never through a local shell. */
  private run(argv: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string; error?: string }> {
    return new Promise((resolve) => {
      const child = spawn(argv[0]!, argv.slice(1), { cwd, env: { ...this.env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8192)));
      const timer = setTimeout(() => child.kill('SIGKILL'), this.opts.timeoutMs ?? 60_000);
      child.once('error', (err) => (clearTimeout(timer), resolve({ code: null, stdout, stderr, error: err.message })));
      child.once('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
    });
  }

  async prepare(p: RemotePrepare): Promise<RemoteLaunch> {
    const { h, t } = this.host(p.host);
    const ssh = this.ssh();
    // `<dir>/<team>/.worktrees/<name>`: laid out as a worktree of a project `<dir>/<team>`, so its role guards and
    // sandbox confine it to its clone as they confine a local teammate to its worktree.
    const dir = [h.dir.replace(/\/+$/, ''), p.team, '.worktrees', p.agent].join('/');
    // Its clone there (made once), and where it is as that machine spells it.
    const made = await this.run([...ssh, '-T', ...sshTail(t), `mkdir -p ${remotePath(dir)} && cd ${remotePath(dir)} && { test -d .git || git init -q; } && rm -f .git/thclaws-*.sock && pwd -P`], this.opts.root);
    if (made.error) throw new Error(`cannot run ${JSON.stringify(ssh[0])} (the ssh command; THCLAWS_SSH names another): ${made.error}`);
    if (made.code === 255) throw new Error(`cannot reach host "${p.host}" (${t.label}) over ssh: ${lastLine(made.stderr) || 'ssh failed'}`);
    const clone = lastLine(made.stdout);
    if (made.code !== 0 || !clone.startsWith('/')) throw new Error(`host "${p.host}" (${t.label}): cannot make the clone ${dir}: ${lastLine(made.stderr) || `exit ${made.code}`}`);
    const base = gitOut(this.opts.root, ['rev-parse', '--verify', '-q', 'HEAD^{commit}']);
    if (!base) throw new Error(`the lead's repository ${this.opts.root} has no commit to start a teammate on host "${p.host}" from`);
    // The lead's HEAD over the person's ssh (git runs GIT_SSH_COMMAND through a shell, as the person would write it).
    const pushed = await this.run(['git', 'push', '-q', '--no-verify', gitUrl(t, clone), `+${base}:${BASE_REF}`], this.opts.root, { GIT_SSH_COMMAND: ssh.map(shellQuote).join(' '), GIT_TERMINAL_PROMPT: '0' });
    // git's last line is "failed to push some refs": the line saying why is the one that names the refusal.
    const refused = pushed.stderr.split('\n').find((l) => /rejected|declined|denied/.test(l))?.trim();
    if (pushed.code !== 0) throw new Error(`host "${p.host}" (${t.label}): git push of the lead's ${base.slice(0, 12)} to ${clone} failed: ${refused || lastLine(pushed.stderr) || pushed.error || `exit ${pushed.code}`}`);
    // Per launch: sshd leaves a forwarded socket's file behind, and a second -R onto it fails (relaunch() renames it).
    const socket = `${clone}/.git/thclaws-${p.spawnId.slice(0, 8)}.sock`;
    const branch = teammateBranch(p.agent);
    const env = { ...p.env, THCLAWS_TEAM_VIA: `host:${socket}`, THCLAWS_PROJECT_ROOT: path.posix.dirname(path.posix.dirname(clone)) };
    for (const k of Object.keys(env)) if (isSecretEnvName(k)) delete (env as Record<string, string>)[k];
    const command = [
      `cd ${shellQuote(clone)}`,
      // Its branch: the one it left (a respawn goes on with its work), else a new one at the lead's HEAD.
      `{ git rev-parse -q --verify refs/heads/${branch} >/dev/null && git checkout -q ${branch} || git checkout -q -b ${branch} ${BASE_REF}; }`,
      ['exec env', ...Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`), remotePath(h.bin), '--team-agent', shellQuote(p.agent), ...p.args.map(shellQuote)].join(' '),
    ].join(' && ');
    // -tt: its pty is the host's pane (typing, Ctrl-C, resize pass through); -R: its store, the host's socket.
    const argv = [...ssh, '-tt', '-o', 'ExitOnForwardFailure=yes', ...KEEPALIVE, '-R', `${socket}:${this.opts.hostSocket()}`, ...sshTail(t), command];
    return { argv, inheritEnv: SSH_ENV, clone, where: `on ${p.host} (${t.label}:${clone})` };
  }

  async fetch(agent: string, host: string, clone: string): Promise<void> {
    const { t } = this.host(host);
    const branch = teammateBranch(agent);
    // Forced: the teammate's branch there is the truth (a rebase there rewrites it); the lead never commits on it.
    const r = await this.run(['git', 'fetch', '-q', '--no-tags', gitUrl(t, clone), `+refs/heads/${branch}:refs/heads/${branch}`], this.opts.root, { GIT_SSH_COMMAND: this.ssh().map(shellQuote).join(' '), GIT_TERMINAL_PROMPT: '0' });
    if (r.code !== 0) throw new Error(`fetching ${branch} from host "${host}" (${t.label}) failed: ${lastLine(r.stderr) || r.error || `exit ${r.code}`}`);
  }
}
