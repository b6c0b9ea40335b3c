/**
 * The one way this program runs git: argv as data, editors and prompts disabled so nothing waits for a person.
 * `git`/`gitOut` are synchronous (worktrees, merge, the guard's probes, the CLI); `runGit`/`gitText` are
 * asynchronous for the review code (the host keeps serving views while it runs), raw bytes (`-z` output is
 * split on NUL before any decoding, so paths with newlines, quotes or unicode stay whole), and bounded (a
 * runaway output or a stuck process ends with an error instead of stalling the caller).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import os from 'node:os';

const QUIET_ENV = { GIT_EDITOR: 'true', EDITOR: 'true', VISUAL: 'true', GIT_SEQUENCE_EDITOR: 'true', GIT_TERMINAL_PROMPT: '0' };

export interface GitResult {
  ok: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  env?: NodeJS.ProcessEnv;
  /** Kill git after this long (short probes); none by default (a merge takes what it takes). */
  timeoutMs?: number;
}

export function git(cwd: string, args: string[], opts: GitOptions = {}): GitResult {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...(opts.env ?? process.env), ...QUIET_ENV },
    maxBuffer: 16 * 1024 * 1024,
    ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
  });
  return { ok: r.status === 0, code: r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '') + (r.error ? String(r.error.message) : '') };
}

/** Trimmed stdout of a successful call (possibly empty), else null. */
export function gitOut(cwd: string, args: string[], opts: GitOptions = {}): string | null {
  const r = git(cwd, args, opts);
  return r.ok ? r.stdout.trim() : null;
}

/** git that must succeed (synchronous; setting up a repository): throws with git's first stderr line. */
export function gitMust(cwd: string, args: string[]): void {
  const r = git(cwd, args);
  if (!r.ok) throw failure(args, r.code, r.stderr);
}

function failure(args: string[], code: number | null, stderr: string): Error {
  return new Error(`git ${args[0]} failed: ${(stderr.trim().split('\n')[0] ?? '') || `exit ${code}`}`);
}

const background = new AsyncLocalStorage<boolean>();

/**
 * Runs `fn` with every git it starts at the lowest CPU priority: work nobody waits for (the change lists)
 * then never slows the work somebody does wait for (a conflict warning).
 */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return background.run(true, fn);
}

/** Lowers a child's priority when started from `inBackground` work. */
function yieldCpu(child: ChildProcess): void {
  if (!background.getStore() || !child.pid) return;
  try {
    os.setPriority(child.pid, 19);
  } catch {
    // gone already, or not allowed: it runs at normal priority
  }
}

export interface GitRun {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  /** The output passed `maxBytes` and was cut (the process was killed). */
  truncated: boolean;
}

export interface GitRunOptions {
  env?: Record<string, string | undefined>;
  /** Output kept; past it the process is killed and `truncated` set. Default 64 MB. */
  maxBytes?: number;
  timeoutMs?: number;
  /** Written to git's stdin (then closed); without it stdin is empty. */
  input?: string;
}

/** The async reader's extra: no optional index refreshes (it runs beside the agents' own git) and C messages. */
const READER_ENV = { ...QUIET_ENV, GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };

/** git with argv as data; `-c core.quotePath=false` so nothing is C-quoted. */
export function runGit(cwd: string, args: string[], opts: GitRunOptions = {}): Promise<GitRun> {
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve) => {
    const child = spawn('git', ['-c', 'core.quotePath=false', ...args], { cwd, env: { ...process.env, ...READER_ENV, ...opts.env }, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    yieldCpu(child);
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => {}); // git may exit before reading it all: its exit code says why
      child.stdin!.end(opts.input);
    }
    const out: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = '';
    const timer = opts.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs) : null;
    child.stdout!.on('data', (b: Buffer) => {
      if (truncated) return;
      size += b.length;
      if (size > maxBytes) {
        truncated = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(b);
    });
    child.stderr!.on('data', (b: Buffer) => {
      if (stderr.length < 64 * 1024) stderr += b.toString('utf8');
    });
    const done = (code: number | null, err?: Error) => {
      if (timer) clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err ? `${stderr}${err.message}` : stderr, truncated });
    };
    child.on('error', (err) => done(null, err));
    child.on('close', (code) => done(code));
  });
}

/** git that must succeed: its stdout as text, else an Error with git's first line. */
export async function gitText(cwd: string, args: string[], opts: GitRunOptions = {}): Promise<string> {
  const r = await runGit(cwd, args, opts);
  if (r.code !== 0) throw failure(args, r.code, r.stderr);
  return r.stdout.toString('utf8');
}

/** NUL-separated fields, decoded as UTF-8 (the trailing empty field dropped). */
export function splitZ(buf: Buffer | string): string[] {
  const s = typeof buf === 'string' ? buf : buf.toString('utf8');
  const parts = s.split('\0');
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/** A pathspec that matches exactly this path (no glob, no magic), whatever characters it holds. */
export function literalPath(p: string): string {
  return `:(literal)${p}`;
}

/** Each object's size, by one `cat-file --batch-check` for all of them; unknown or missing objects are left out. */
export async function objectSizes(cwd: string, oids: string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (!oids.length) return sizes;
  const r = await runGit(cwd, ['cat-file', '--batch-check=%(objectname) %(objectsize)'], { input: `${oids.join('\n')}\n` });
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [oid, size] = line.split(' ');
    if (oid && size && /^\d+$/.test(size)) sizes.set(oid, Number(size));
  }
  return sizes;
}
