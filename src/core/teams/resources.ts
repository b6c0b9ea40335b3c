/**
 * What each agent costs the machine: CPU % and resident memory of its whole process tree (the agent, the
 * tools it runs, their dev servers and test runners), and the disk its worktree takes. A teammate's Bash
 * commands run in process groups of their own (command-groups.ts records them), so the tree is every process
 * below the agent's pid plus every process of a recorded group and what is below it — never what is below
 * another agent's pid (a lead's background teammates are its children, but their cost is their own).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

export interface Resources {
  /** CPU of the tree over the last sampling interval, in % of one core (null: not running). */
  cpu_percent: number | null;
  rss_bytes: number | null;
  /** Disk used by its worktree (null: no worktree of its own, or not measured yet). */
  disk_bytes: number | null;
}

interface Proc {
  ppid: number;
  pgrp: number;
  /** utime + stime, in clock ticks. */
  ticks: number;
  rssPages: number;
}

/** Linux's USER_HZ: 100 on every architecture Node runs on. */
const CLK_TCK = 100;

/** Every process of the machine, from /proc (Linux); empty elsewhere (resources then read null). */
export function readProcs(): Map<number, Proc> {
  const out = new Map<number, Proc>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces or parentheses: fields start after the last ')'.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(e), { ppid: Number(f[1]), pgrp: Number(f[2]), ticks: Number(f[11]) + Number(f[12]), rssPages: Number(f[21]) });
    } catch {
      // ended while listed
    }
  }
  return out;
}

let pageSize: number | undefined;
/** Bytes per page: this process's RSS in bytes over its RSS in pages, rounded to a power of two. */
function pageBytes(procs: Map<number, Proc>): number {
  if (pageSize) return pageSize;
  const pages = procs.get(process.pid)?.rssPages;
  if (!pages) return 4096;
  return (pageSize = 2 ** Math.round(Math.log2(process.memoryUsage().rss / pages)));
}

/** The pids of an agent's tree: below `root`, and every recorded group with what is below it; `stop` pids excluded with their trees. */
export function treeOf(procs: Map<number, Proc>, root: number | null, groups: number[], stop: ReadonlySet<number> = new Set()): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, p] of procs) (children.get(p.ppid) ?? children.set(p.ppid, []).get(p.ppid)!).push(pid);
  const seeds = [...(root && procs.has(root) ? [root] : []), ...[...procs].filter(([, p]) => groups.includes(p.pgrp)).map(([pid]) => pid)];
  const seen = new Set<number>();
  for (const queue = seeds; queue.length; ) {
    const pid = queue.pop()!;
    if (seen.has(pid) || (pid !== root && stop.has(pid))) continue;
    seen.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return [...seen];
}

/** CPU % needs two readings: each agent's previous one (its pids' ticks and when) is kept between samples. */
export class ResourceSampler {
  private readonly prev = new Map<string, { at: number; ticks: Map<number, number> }>();

  /** CPU and memory of `agent`'s tree now; CPU over the time since its previous sample (0 on the first). */
  sample(agent: string, procs: Map<number, Proc>, root: number | null, groups: number[], stop: ReadonlySet<number> = new Set(), now = Date.now()): Pick<Resources, 'cpu_percent' | 'rss_bytes'> {
    const pids = treeOf(procs, root, groups, stop);
    if (!pids.length) {
      this.prev.delete(agent);
      return { cpu_percent: null, rss_bytes: null };
    }
    const ticks = new Map(pids.map((pid) => [pid, procs.get(pid)!.ticks]));
    const before = this.prev.get(agent);
    this.prev.set(agent, { at: now, ticks });
    let used = 0;
    // A process new since the last reading counts from its start (it began within the interval, or nearly).
    for (const [pid, t] of ticks) used += before ? Math.max(0, t - (before.ticks.get(pid) ?? 0)) : 0;
    const secs = before ? (now - before.at) / 1000 : 0;
    const cpu = secs > 0 ? Math.round(((used / CLK_TCK / secs) * 100) * 10) / 10 : 0;
    const rss = pids.reduce((n, pid) => n + procs.get(pid)!.rssPages, 0) * pageBytes(procs);
    return { cpu_percent: cpu, rss_bytes: rss };
  }

  forget(agent: string): void {
    this.prev.delete(agent);
  }
}

/** Disk used by `dir` in bytes (`du`, at the lowest priority; null when it cannot be measured). */
export function diskUsage(dir: string, timeoutMs = 60_000): Promise<number | null> {
  return new Promise((resolve) => {
    const child = execFile('du', ['-sk', dir], { timeout: timeoutMs, maxBuffer: 1 << 20 }, (err, stdout) => {
      // du exits 1 when a file vanished mid-walk: its total still holds.
      const kb = Number(/^(\d+)/.exec(stdout ?? '')?.[1]);
      resolve(Number.isFinite(kb) && (!err || stdout) ? kb * 1024 : null);
    });
    try {
      if (child.pid) os.setPriority(child.pid, 19);
    } catch {
      // gone already
    }
  });
}

/** Disk use measured at most once per `everyMs` per folder (du walks every file): the last figure meanwhile. */
export class DiskCache {
  private readonly known = new Map<string, { bytes: number | null; at: number; running: boolean }>();
  constructor(
    private readonly everyMs = 30_000,
    private readonly changed: () => void = () => {},
  ) {}

  get(dir: string, now = Date.now()): number | null {
    const k = this.known.get(dir);
    if (!k || (!k.running && now - k.at >= this.everyMs)) void this.measure(dir);
    return k?.bytes ?? null;
  }

  /** Measures now (after a change that moves the figure: an update, an archive). */
  async measure(dir: string): Promise<void> {
    const k = this.known.get(dir) ?? { bytes: null, at: 0, running: false };
    if (k.running) return;
    this.known.set(dir, { ...k, running: true });
    const bytes = fs.existsSync(dir) ? await diskUsage(dir) : null;
    this.known.set(dir, { bytes, at: Date.now(), running: false });
    if (bytes !== k.bytes) this.changed();
  }
}
