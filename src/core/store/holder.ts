import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';

/**
 * Who holds a lock or lease: enough to tell, on the same host, whether that process still lives (pid, boot
 * id, the process's start time), and a random token that tells two holders apart even when a pid is reused.
 */
export interface Holder {
  host: string;
  pid: number;
  /** Linux boot id; '' where the platform has none (then a reboot is not detected). */
  boot: string;
  /** Process start time in clock ticks since boot (Linux); '' where unknown (then pid reuse is not detected). */
  start: string;
  token: string;
  /** Linux pid namespace (`pid:[…]`); '' where unknown. Containers sharing a hostname differ here. */
  ns?: string;
}

const HOST = os.hostname();
const BOOT = readOr('/proc/sys/kernel/random/boot_id', '').trim();
const SELF_START = processStart(process.pid);
const PID_NS = readlinkOr('/proc/self/ns/pid');

function readlinkOr(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '';
  }
}

function readOr(file: string, fallback: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

/**
 * Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces): the process's
 * start time in clock ticks since boot; '' where unknown (no /proc, or the pid is gone).
 */
export function processStart(pid: number): string {
  const stat = readOr(`/proc/${pid}/stat`, '');
  const close = stat.lastIndexOf(')');
  if (close < 0) return '';
  return stat.slice(close + 2).split(' ')[19] ?? '';
}

export function newHolder(): Holder {
  return { host: HOST, pid: process.pid, boot: BOOT, start: SELF_START, token: randomBytes(9).toString('base64url'), ns: PID_NS };
}

/**
 * Whether the holder's pid can be checked from here: same host name and same pid namespace (two containers
 * with one host name sharing a volume must not judge each other's pids).
 */
export function sameMachine(h: Holder): boolean {
  return h.host === HOST && (!h.ns || !PID_NS || h.ns === PID_NS);
}

/**
 * One line, stored as a symlink's target (or a lock file's content):
 * `thclaws1 <host> <pid> <boot> <start> <token> [<pid namespace>]`.
 */
export function encodeHolder(h: Holder): string {
  const fields = ['thclaws1', encodeURIComponent(h.host), h.pid, h.boot || '-', h.start || '-', h.token];
  if (h.ns) fields.push(encodeURIComponent(h.ns));
  return fields.join(' ');
}

export function decodeHolder(raw: string): Holder | null {
  const p = raw.trim().split(' ');
  if ((p.length !== 6 && p.length !== 7) || p[0] !== 'thclaws1') return null;
  const pid = Number(p[2]);
  if (!Number.isSafeInteger(pid) || pid <= 0) return null;
  let host: string;
  let ns = '';
  try {
    host = decodeURIComponent(p[1]!);
    if (p[6]) ns = decodeURIComponent(p[6]);
  } catch {
    return null;
  }
  return { host, pid, boot: p[3] === '-' ? '' : p[3]!, start: p[4] === '-' ? '' : p[4]!, token: p[5]!, ns };
}

/**
 * Whether the pid is a running process. A zombie (exited, not yet reaped by a parent that never waits) answers
 * kill(0) and keeps its start time, but will never act again: it is dead.
 */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** State `Z` (or `X`) in /proc/<pid>/stat; false where there is no /proc. */
function isZombie(pid: number): boolean {
  const stat = readOr(`/proc/${pid}/stat`, '');
  const close = stat.lastIndexOf(')');
  const state = close < 0 ? '' : stat.charAt(close + 2);
  return state === 'Z' || state === 'X';
}

/**
 * Whether a holder on this host is certainly dead: its machine rebooted since, its pid is gone, or the pid now
 * belongs to a process started at another time. A stopped (SIGSTOP) process is alive. Only meaningful when
 * sameMachine(h); for another host nothing can be known from here.
 */
export function holderDead(h: Holder): boolean {
  if (h.boot && BOOT && h.boot !== BOOT) return true;
  if (!pidAlive(h.pid)) return true;
  if (h.start && SELF_START) {
    const now = processStart(h.pid);
    if (now && now !== h.start) return true;
  }
  return false;
}

/**
 * A process named in a status (an agent, or the lead spawning it): the fields of a holder without its token.
 * `start` tells the process from a later one given the same pid.
 */
export type ProcessId = Omit<Holder, 'token'>;

/** This process as a ProcessId. */
export function selfProcess(): ProcessId {
  return { host: HOST, pid: process.pid, boot: BOOT, start: SELF_START, ns: PID_NS };
}

/**
 * Whether `pid` on this machine is still the process that started at `start`. An empty `start` (another
 * platform, an older status) degrades to a liveness probe. Only meaningful for a pid on this host.
 */
export function pidIsSame(pid: number, start: string | null | undefined): boolean {
  if (!pidAlive(pid)) return false;
  if (!start) return true;
  const now = processStart(pid);
  return !now || now === start;
}

export function describeHolder(h: Holder | null): string {
  return h ? `pid ${h.pid} on ${h.host}` : 'an unknown holder';
}
