/**
 * git for the review code: asynchronous (the desktop host keeps serving views while it runs), raw bytes
 * (`-z` output is split on NUL before any decoding, so paths with newlines, quotes or unicode stay whole),
 * bounded (a runaway output or a stuck process ends with an error instead of stalling the caller).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import os from 'node:os';

const background = new AsyncLocalStorage<boolean>();

/**
 * Runs `fn` with every git it starts at the lowest CPU priority: work nobody waits for (the change lists)
 * then never slows the work somebody does wait for (a conflict warning).
 */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return background.run(true, fn);
}

/** Lowers a child's priority when started from `inBackground` work. */
export function yieldCpu(child: ChildProcess): void {
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

const QUIET_ENV = { GIT_EDITOR: 'true', EDITOR: 'true', VISUAL: 'true', GIT_SEQUENCE_EDITOR: 'true', GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C' };

/** git with argv as data; `-c core.quotePath=false` so nothing is C-quoted. */
export function runGit(cwd: string, args: string[], opts: GitRunOptions = {}): Promise<GitRun> {
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve) => {
    const child = spawn('git', ['-c', 'core.quotePath=false', ...args], { cwd, env: { ...process.env, ...QUIET_ENV, ...opts.env }, stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
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
  if (r.code !== 0) throw new Error(`git ${args[0]} failed: ${(r.stderr.trim().split('\n')[0] ?? '') || `exit ${r.code}`}`);
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
