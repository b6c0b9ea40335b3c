import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pty from '@lydell/node-pty';
import { pidAlive } from '../../store/index.js';
import { signalLateChild } from './late-signal.js';

/**
 * A child in a pty whose output tail is never lost.
 *
 * node-pty can report exit before the last KBs were read, and the kernel may discard what is still queued
 * when the slave side closes. So the child runs under a tiny bash wrapper that, after the child exits,
 * prints an end marker and waits for the host to answer: everything before the marker has then been read
 * (a pty is ordered), and only then does the slave close. The wait has no timeout: a pane paused by flow
 * control for minutes still gets its tail once resumed, and a host that goes away closes the master, which
 * ends the wait. Signals sent to the group reach the child; the wrapper traps TERM and INT (a handler, not an
 * ignore, so the child keeps default dispositions) and still reports. It does not trap HUP: when the host dies
 * (SIGKILL, crash) the master closes, the kernel hangs up the wrapper (the session leader), and its exit sends
 * SIGHUP to the child, which then stops instead of running on headless with no pane and holding its lease.
 * The one pty implementation: the host's launcher runs children through it.
 */
const MARKER_HEAD = '\x1b]6973;thclaws-pty-end;';
/**
 * The end marker carries a random nonce the wrapper gets in its environment and unsets before running the
 * child: a child printing a marker (a file it cats, a model's text) cannot end its own pane.
 */
const NONCE_ENV = 'THCLAWS_PTY_END';
/**
 * Every descriptor past stdio is closed first: node-pty leaves each earlier pane's pty master open in later
 * children, so a teammate could type into another pane (its agent reads that as the person's keys), and a
 * master held by a pane that outlives a dead host keeps the other pane's wrapper waiting for ever.
 */
const CLOSE_INHERITED = 'for f in /dev/fd/*; do f=${f##*/}; [ "$f" -gt 2 ] && eval "exec $f>&-"; done;';
const WRAPPER = `${CLOSE_INHERITED} n=$${NONCE_ENV}; unset ${NONCE_ENV}; trap : TERM INT; "$@"; rc=$?; printf '\\033]6973;thclaws-pty-end;%s\\007' "$n"; IFS= read -r _; exit $rc`;

export interface PtyExit {
  code: number | null;
  signal: string | null;
}

export interface PtyOptions {
  cwd: string;
  env: Record<string, string>;
  cols?: number;
  rows?: number;
}

export class PtyProcess {
  readonly pid: number;
  readonly exited: Promise<PtyExit>;
  private readonly term: pty.IPty;
  private dataListener: (data: string) => void = () => {};
  private held = '';
  private ended = false;
  private paused = false;
  private readonly endMarker: string;

  constructor(argv: string[], opts: PtyOptions) {
    if (argv.length === 0) throw new Error('empty argv');
    const nonce = randomBytes(16).toString('hex');
    this.endMarker = `${MARKER_HEAD}${nonce}\x07`;
    this.term = pty.spawn('bash', ['-c', WRAPPER, 'thclaws-pty', ...argv], {
      name: 'xterm-256color',
      cols: opts.cols ?? 120,
      rows: opts.rows ?? 32,
      cwd: opts.cwd,
      env: { ...opts.env, [NONCE_ENV]: nonce },
    });
    this.pid = this.term.pid;
    let resolveExit!: (e: PtyExit) => void;
    this.exited = new Promise((r) => (resolveExit = r));
    this.term.onData((d) => this.onChunk(d));
    this.term.onExit(({ exitCode, signal }) => {
      this.flushHeld();
      this.ended = true;
      resolveExit(toExit(exitCode, signal));
    });
  }

  onData(listener: (data: string) => void): void {
    this.dataListener = listener;
  }

  write(data: string): void {
    if (!this.ended) this.term.write(data);
  }

  resize(cols: number, rows: number): void {
    if (this.ended) return;
    try {
      this.term.resize(cols, rows);
    } catch {
      // raced with exit
    }
  }

  /** Stops reading the pty: the child blocks on its next write once the kernel buffer is full. */
  pause(): void {
    if (this.paused || this.ended) return;
    this.paused = true;
    this.term.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    if (!this.ended) this.term.resume();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /**
   * Signals the process group (the wrapper and the child; the wrapper survives to report the end). Right after
   * the start the group may not exist yet (the pty's process has not made its session): the signal is sent
   * again until it lands or the process is gone. Dropped, it left the child running for good under a host
   * that had stopped it (Stop right after Respawn; 47 of 300 immediate kills, found by a batch round). Once it
   * lands, a child the wrapper forks only after it gets the signal too (late-signal.ts).
   */
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.ended) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      if (pidAlive(this.pid)) setTimeout(() => this.kill(signal), 10).unref();
      return;
    }
    signalLateChild(this.pid, signal, () => this.ended);
  }

  private onChunk(data: string): void {
    if (this.ended) return;
    const text = this.held + data;
    this.held = '';
    const at = text.indexOf(this.endMarker);
    if (at >= 0) {
      if (at > 0) this.dataListener(text.slice(0, at));
      this.ended = true; // everything after the marker is the wrapper's own echo
      this.term.write('\r');
      return;
    }
    // Hold back a possible marker prefix split across reads.
    const keep = partialSuffix(text, this.endMarker);
    if (keep > 0) this.held = text.slice(text.length - keep);
    const out = keep > 0 ? text.slice(0, text.length - keep) : text;
    if (out) this.dataListener(out);
  }

  private flushHeld(): void {
    if (this.held && !this.ended) this.dataListener(this.held);
    this.held = '';
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialSuffix(text: string, marker: string): number {
  const max = Math.min(marker.length - 1, text.length);
  for (let n = max; n > 0; n--) if (text.endsWith(marker.slice(0, n))) return n;
  return 0;
}

function toExit(exitCode: number, signal: number | undefined): PtyExit {
  if (signal) return { code: null, signal: signalName(signal) };
  // The wrapper reports a signalled child as 128 + n, as shells do.
  if (exitCode > 128 && exitCode < 128 + 65) {
    const name = signalName(exitCode - 128);
    if (name) return { code: null, signal: name };
  }
  return { code: exitCode, signal: null };
}

function signalName(n: number): string | null {
  for (const [name, num] of Object.entries(os.constants.signals)) if (num === n) return name;
  return null;
}
