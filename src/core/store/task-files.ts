import fs from 'node:fs';
import path from 'node:path';
import { createFileExclusive, parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import type { Journal } from './journal.js';
import { LIMITS, TASK_FILE_OR_COPY_PATTERN, TASK_FILE_PATTERN } from '../../contract/limits.js';
import type { LockGuard } from './lock.js';
import type { TeamPaths } from './paths.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import { describeIssues, type Task, TaskSchema } from '../../contract/store-schemas.js';
import { TeamError } from './errors.js';

const TASK_FILE = TASK_FILE_PATTERN;

type ReadTask = { kind: 'ok'; task: Task } | { kind: 'missing' } | { kind: 'corrupt'; reason: string };

interface CacheEntry {
  ino: number;
  mtimeMs: number;
  size: number;
  task: Task;
}

/**
 * Reads and writes `tasks/<id>.json`. Listing is cached per file by (inode, mtime, size): writers replace
 * files by rename, so a new inode means new content and a list costs one stat per task, not one parse.
 */
export class TaskFiles {
  private readonly cache = new Map<string, CacheEntry>();
  private maxKnown = 0;
  private lastFullScan = 0;
  private readonly notedOutliers = new Set<number>();

  constructor(
    private readonly paths: TeamPaths,
    private readonly journal: Journal,
  ) {}

  /** A fresh read that also refreshes the scan cache, so a stale candidate is not offered twice. */
  readAndCache(id: string): ReadTask {
    const r = this.read(id);
    if (r.kind === 'ok') this.remember(id, null, r.task);
    else this.cache.delete(id);
    return r;
  }

  /** Re-reads one task if its file changed; drops it from the cache when gone or unparseable. */
  private refresh(id: string): 'ok' | 'missing' | 'bad' {
    let st: fs.Stats;
    try {
      st = fs.statSync(this.paths.task(id));
    } catch {
      this.cache.delete(id);
      return 'missing';
    }
    const hit = this.cache.get(id);
    if (hit && hit.ino === st.ino && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return 'ok';
    const r = st.isFile() ? this.read(id) : null;
    if (r?.kind === 'ok') {
      this.remember(id, st, r.task);
      return 'ok';
    }
    this.cache.delete(id);
    return 'bad';
  }

  /** `st` null = content known fresh but no stat: the next refresh re-reads it. */
  private remember(id: string, st: fs.Stats | null, task: Task): void {
    this.cache.set(id, { ino: st?.ino ?? -1, mtimeMs: st?.mtimeMs ?? -1, size: st?.size ?? -1, task });
    this.maxKnown = Math.max(this.maxKnown, Number(id));
  }

  /** The counter as a probe bound; an implausible one (see readHwm) is ignored here too. */
  private quietHwm(): number {
    const r = readTextFile(this.paths.hwm);
    const n = r.kind === 'ok' && /^\s*\d{1,15}\s*$/.test(r.text) ? Number(r.text) : 0;
    return n > this.maxKnown + LIMITS.hwmMaxAhead ? 0 : n;
  }

  read(id: string): ReadTask {
    const r = readTextFile(this.paths.task(id));
    if (r.kind === 'missing') return r;
    if (r.kind === 'unreadable') return { kind: 'corrupt', reason: r.reason };
    return parseTask(id, r.text);
  }

  /**
   * Candidates for claimNext, which re-reads each one before using it. Between full scans (at most
   * taskHintRescanMs apart) it skips readdir (the hot cost with hundreds of tasks): ids only grow, so new
   * tasks are found by probing past the highest known id, and only in-progress tasks are re-stat'ed (a
   * release must never be missed); cached pending ones are verified at claim time.
   */
  scanHint(): Task[] {
    if (Date.now() - this.lastFullScan > TEAM_POLICY.taskHintRescanMs) return this.scan().tasks;
    const bound = Math.max(this.quietHwm(), this.maxKnown);
    for (let id = this.maxKnown + 1; ; id++) {
      const gone = this.refresh(String(id)) === 'missing';
      if (gone && id > bound) break;
    }
    const tasks: Task[] = [];
    for (const [id, entry] of this.cache) {
      if (entry.task.status === 'in_progress' && this.refresh(id) !== 'ok') continue;
      const e = this.cache.get(id);
      if (e) tasks.push(e.task);
    }
    return tasks; // not sorted: claimNext picks its few candidates itself
  }

  /** Every parseable task in id order; the ids of unparseable files are returned for quarantine. */
  scan(): { tasks: Task[]; corrupt: Array<{ id: string; reason: string }> } {
    this.lastFullScan = Date.now();
    let names: string[];
    try {
      names = fs.readdirSync(this.paths.tasksDir);
    } catch {
      return { tasks: [], corrupt: [] };
    }
    const tasks: Task[] = [];
    const corrupt: Array<{ id: string; reason: string }> = [];
    const seen = new Set<string>();
    for (const name of names) {
      const m = TASK_FILE.exec(name);
      if (!m) continue;
      const id = m[1]!;
      seen.add(id);
      const file = path.join(this.paths.tasksDir, name);
      let st: fs.Stats;
      try {
        st = fs.statSync(file);
      } catch {
        continue; // removed meanwhile
      }
      const hit = this.cache.get(id);
      if (hit && hit.ino === st.ino && hit.mtimeMs === st.mtimeMs && hit.size === st.size) {
        tasks.push(hit.task);
        continue;
      }
      const r = st.isFile() ? this.read(id) : ({ kind: 'corrupt', reason: 'not a regular file' } as const);
      if (r.kind === 'ok') {
        this.remember(id, st, r.task);
        tasks.push(r.task);
      } else if (r.kind === 'corrupt') corrupt.push({ id, reason: r.reason });
    }
    for (const id of this.cache.keys()) if (!seen.has(id)) this.cache.delete(id);
    tasks.sort((a, b) => Number(a.id) - Number(b.id));
    return { tasks, corrupt };
  }

  /** Moves a corrupt task file aside, re-checking under its lock so a concurrent valid write is not lost. */
  async quarantine(id: string): Promise<void> {
    await this.journal.quarantineIfStillBad(this.paths.task(id), () => {
      const r = this.read(id);
      return r.kind === 'corrupt' ? r.reason : null;
    });
  }

  /**
   * Highest id any file in tasks/ claims, parseable or quarantined: an id is never reused. Ids are
   * issued in sequence, so one lying more than LIMITS.hwmMaxAhead beyond the others was never issued here (a
   * stray `999999999999999.json`, or its quarantined copy, would otherwise make every next id too long, for
   * ever): it is journalled and skipped, like a garbled `_hwm`. Exclusive creation still never overwrites it.
   */
  highestIdOnDisk(): number {
    let names: string[] = [];
    try {
      names = fs.readdirSync(this.paths.tasksDir);
    } catch {
      // no tasks yet
    }
    const ids: number[] = [];
    for (const n of names) {
      const m = TASK_FILE_OR_COPY_PATTERN.exec(n);
      if (m) ids.push(Number(m[1]));
    }
    ids.sort((a, b) => a - b);
    let max = 0;
    for (const id of ids) {
      if (id > max + LIMITS.hwmMaxAhead) {
        if (this.notedOutliers.has(id)) break;
        this.notedOutliers.add(id); // once per process, not once per create
        this.journal.record({ event: 'note', file: this.paths.tasksDir, reason: `task id ${id} on disk lies far beyond the others (highest ${max}); ids continue from ${max}` });
        break;
      }
      max = id;
    }
    return max;
  }

  /**
   * `guard`: the lock(s) the caller holds, re-checked just before the rename. The task is checked against the
   * schema every reader applies first: an edit (a long subject, a cancel reason, extra fields) that readers
   * would quarantine is refused with nothing written, instead of making the task vanish on the next read.
   */
  write(task: Task, guard: LockGuard): void {
    const checked = TaskSchema.safeParse(task);
    if (!checked.success) throw new TeamError('invalid', `task ${task.id} refused: ${describeIssues(checked.error)}`);
    writeFileAtomic(this.paths.task(task.id), JSON.stringify(task, null, 2), { guard });
  }

  /** False when the id is taken. */
  createExclusive(task: Task, guard: LockGuard): boolean {
    return createFileExclusive(this.paths.task(task.id), JSON.stringify(task, null, 2), guard);
  }

  /**
   * The id high-water mark; a missing or garbled `_hwm` reads as 0 and is journalled, never trusted. So
   * does one more than LIMITS.hwmMaxAhead beyond `highestOnDisk`: ids continue from the highest task.
   */
  readHwm(highestOnDisk: number): number {
    const r = readTextFile(this.paths.hwm);
    if (r.kind === 'missing') return 0;
    if (r.kind === 'unreadable') {
      this.journal.quarantine(this.paths.hwm, r.reason);
      return 0;
    }
    const n = /^\s*(\d{1,15})\s*$/.exec(r.text);
    if (!n) {
      this.journal.record({ event: 'note', file: this.paths.hwm, reason: `garbled task id counter ${JSON.stringify(r.text.slice(0, 40))}; ids continue from the highest task` });
      return 0;
    }
    const value = Number(n[1]);
    if (value > highestOnDisk + LIMITS.hwmMaxAhead) {
      this.journal.record({
        event: 'note',
        file: this.paths.hwm,
        reason: `implausible task id counter ${value} (highest task id ${highestOnDisk}); ids continue from the highest task`,
      });
      return 0;
    }
    return value;
  }

  /** Not fsynced: ids come from max(_hwm, ids on disk), so a lost counter update cannot reuse an id. */
  writeHwm(n: number, guard: LockGuard): void {
    writeFileAtomic(this.paths.hwm, String(n), { durable: false, guard });
  }
}

function parseTask(id: string, text: string): ReadTask {
  const json = parseJson(text);
  if (!json.ok) return { kind: 'corrupt', reason: json.reason };
  const res = TaskSchema.safeParse(json.value);
  if (!res.success) return { kind: 'corrupt', reason: describeIssues(res.error) };
  if (res.data.id !== id) return { kind: 'corrupt', reason: `id field ${res.data.id} does not match file name ${id}.json` };
  return { kind: 'ok', task: res.data };
}
