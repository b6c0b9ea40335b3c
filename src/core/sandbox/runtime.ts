/**
 * The OS sandbox engine: `@anthropic-ai/sandbox-runtime` (bubblewrap on Linux, sandbox-exec on macOS), loaded
 * on first use (its import costs ~150 ms of start-up). With the network open no proxy is started: commands
 * are wrapped with a per-command filesystem policy only. An allowlist starts the runtime's filtering proxies.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SandboxStatus } from './status.js';

type Srt = typeof import('@anthropic-ai/sandbox-runtime');

export interface FsPolicy {
  allowWrite: string[];
  denyWrite: string[];
  denyRead: string[];
}

let srt: Promise<Srt> | null = null;
function load(): Promise<Srt> {
  srt ??= import('@anthropic-ai/sandbox-runtime');
  return srt;
}

export const INSTALL_FIX = {
  linux: 'apt-get install -y bubblewrap socat ripgrep (and allow unprivileged user namespaces: sysctl -w kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu 24.04+)',
  darwin: 'sandbox-exec ships with macOS; check that /usr/bin/sandbox-exec exists',
  other: 'run thclaws under Linux (or WSL2) or macOS; Windows is not supported by the OS sandbox yet',
} as const;

function fixFor(platform: NodeJS.Platform): string {
  return platform === 'linux' ? INSTALL_FIX.linux : platform === 'darwin' ? INSTALL_FIX.darwin : INSTALL_FIX.other;
}

function isWsl1(): boolean {
  try {
    const v = readFileSync('/proc/version', 'utf8');
    return /microsoft/i.test(v) && !/WSL2/i.test(v);
  } catch {
    return false;
  }
}

function run(command: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', (err) => resolve({ code: -1, output: err.message }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function onPath(bin: string): boolean {
  return (process.env.PATH ?? '').split(path.delimiter).some((d) => d !== '' && existsSync(path.join(d, bin)));
}

/**
 * What can be known without loading the runtime or running anything: the platform and the binaries it needs.
 * Cheap enough for start-up; null means "looks possible" (the real probe decides).
 */
export function quickCheck(): SandboxStatus | null {
  const platform = process.platform;
  if ((platform !== 'linux' && platform !== 'darwin') || (platform === 'linux' && isWsl1())) {
    return { state: 'guards-only', reason: `no OS sandbox for ${platform === 'linux' ? 'WSL1' : platform}`, fix: fixFor(platform) };
  }
  if (platform === 'darwin') return existsSync('/usr/bin/sandbox-exec') ? null : { state: 'guards-only', reason: 'sandbox-exec not found', fix: fixFor(platform) };
  const missing = [['bwrap', 'bubblewrap'], ['socat', 'socat'], ['rg', 'ripgrep']].filter(([bin]) => !onPath(bin as string)).map(([, pkg]) => pkg);
  return missing.length > 0 ? { state: 'guards-only', reason: `${missing.join(', ')} not installed`, fix: fixFor(platform) } : null;
}

const PROBE_OK = 'thclaws-sandbox-probe-ok';

let probed: Promise<SandboxStatus> | null = null;

/**
 * Whether the sandbox can run here: platform, dependencies, and one real wrapped command (user namespaces may
 * be disabled in nested containers even when bubblewrap is installed). Once per process.
 */
export function probeSandbox(): Promise<SandboxStatus> {
  probed ??= (async (): Promise<SandboxStatus> => {
    const platform = process.platform;
    const quick = quickCheck();
    if (quick) return quick;
    let m: Srt;
    try {
      m = await load();
    } catch (err) {
      return { state: 'guards-only', reason: `@anthropic-ai/sandbox-runtime failed to load (${(err as Error).message})`, fix: 'reinstall thclaws (npm ci)' };
    }
    const deps = m.SandboxManager.checkDependencies();
    if (deps.errors.length > 0) return { state: 'guards-only', reason: deps.errors.join(', '), fix: fixFor(platform) };
    try {
      const wrapped = await m.SandboxManager.wrapWithSandbox(`echo ${PROBE_OK}`, '/bin/sh', { filesystem: { allowWrite: [], denyWrite: [], denyRead: [] } });
      const r = await run(wrapped, 15_000);
      if (r.code !== 0 || !r.output.includes(PROBE_OK)) {
        const why = r.output.trim().split('\n').slice(-1)[0] ?? `exit ${r.code}`;
        return { state: 'guards-only', reason: `a sandboxed test command failed (${why})`, fix: fixFor(platform) };
      }
    } catch (err) {
      return { state: 'guards-only', reason: `wrapping failed (${(err as Error).message})`, fix: fixFor(platform) };
    }
    return { state: 'os', platform, detail: platform === 'linux' ? 'bubblewrap' : 'sandbox-exec' };
  })();
  return probed;
}

let networkReady: Promise<void> | null = null;

/** Starts the runtime's network filter for an allowlist (once per process; the first list wins). */
function startNetwork(m: Srt, allowedDomains: string[]): Promise<void> {
  networkReady ??= m.SandboxManager.initialize({
    network: { allowedDomains, deniedDomains: [] },
    filesystem: { allowWrite: [], denyWrite: [], denyRead: [] },
  });
  return networkReady;
}

let neutral: string | null = null;
/**
 * The runtime protects "dangerous" files (.bashrc, .gitconfig, .git/hooks…) relative to the process's cwd by
 * binding /dev/null over them — in a teammate's worktree those placeholders showed up as character devices
 * and broke `git add -A`. The wrap therefore runs from an empty directory of our own; the policy denies the
 * files that matter (the shared git hooks and config) itself.
 */
function neutralDir(): string {
  if (neutral && existsSync(neutral)) return neutral;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  neutral = path.join(os.tmpdir(), `thclaws-sandbox-cwd-${uid}`);
  mkdirSync(neutral, { recursive: true, mode: 0o700 });
  return neutral;
}

/** Wraps never overlap: each holds the process cwd at the neutral directory while it runs. */
let queue: Promise<unknown> = Promise.resolve();

/** The command line that runs `command` under the policy (to be run with `sh -c`). */
export async function wrapCommand(command: string, fs: FsPolicy, allowedDomains: string[] | undefined, signal?: AbortSignal): Promise<string> {
  const m = await load();
  if (allowedDomains) await startNetwork(m, allowedDomains);
  const turn = queue.then(async () => {
    const back = process.cwd();
    let moved = false;
    try {
      process.chdir(neutralDir());
      moved = true;
    } catch {
      // Worker threads cannot chdir: wrap from where we are (placeholders may then appear in that directory).
    }
    try {
      return await m.SandboxManager.wrapWithSandbox(command, '/bin/sh', {
        filesystem: { allowWrite: fs.allowWrite, denyWrite: fs.denyWrite, denyRead: fs.denyRead },
        ...(allowedDomains ? { network: { allowedDomains, deniedDomains: [] } } : {}),
      }, signal);
    } finally {
      if (moved) process.chdir(back);
    }
  });
  queue = turn.catch(() => undefined);
  return turn;
}

/** Stops the network filter's proxies, if an allowlist started them. */
export async function stopSandboxRuntime(): Promise<void> {
  if (!networkReady) return;
  const m = await load();
  await m.SandboxManager.reset();
  networkReady = null;
}
