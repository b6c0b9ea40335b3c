import { type AgentLeases, ClaimGates } from './claim-gate.js';
import { ensureDir } from './fsio.js';
import { withLock } from './lock.js';
import { assertAgentName, assertTaskId, isTaskId } from './names.js';
import type { TeamPaths } from './paths.js';
import { TEAM_POLICY } from './policy.js';
import type { Task, TaskStatus } from './schemas.js';
import { findCycle } from './task-graph.js';
import type { TaskFiles } from './task-files.js';
import { TeamError, type TeamErrorCode } from './errors.js';

export interface NewTask {
  subject: string;
  description: string;
  /** Reservation: only this agent may claim it, before and after any release (D-13). */
  reservedFor?: string | null;
  blockedBy?: string[];
}

/** The task queue rules of reference §4.3, with the fixes of D-8, D-13, D-16, D-18. */
export class Tasks {
  constructor(
    private readonly paths: TeamPaths,
    private readonly files: TaskFiles,
    /** Names allowed to own tasks (roster + lead + user); throws when there is no team. */
    private readonly roster: () => Promise<string[]>,
    leases: AgentLeases,
  ) {
    this.gates = new ClaimGates(leases, files);
  }

  private readonly gates: ClaimGates;

  async list(filter?: { status?: TaskStatus }): Promise<Task[]> {
    const { tasks, corrupt } = this.files.scan();
    for (const c of corrupt) await this.files.quarantine(c.id);
    return filter?.status ? tasks.filter((t) => t.status === filter.status) : tasks;
  }

  async get(id: string): Promise<Task> {
    assertTaskId(id);
    const r = this.files.read(id);
    if (r.kind === 'ok') return r.task;
    if (r.kind === 'corrupt') await this.files.quarantine(id);
    throw new TeamError('not_found', `task ${id} not found`);
  }

  async create(input: NewTask): Promise<Task> {
    const subject = input.subject.trim();
    if (!subject) throw new TeamError('invalid', 'task subject is empty');
    if (subject.length > TEAM_POLICY.maxSubjectChars) throw new TeamError('invalid', `task subject longer than ${TEAM_POLICY.maxSubjectChars} characters`);
    if (input.description.length > TEAM_POLICY.maxDescriptionChars) throw new TeamError('invalid', `task description longer than ${TEAM_POLICY.maxDescriptionChars} characters`);
    const deps = [...new Set((input.blockedBy ?? []).map((d) => assertTaskId(d)))];
    const reservedFor = input.reservedFor ? await this.assertKnown(input.reservedFor, 'owner') : null;
    // Only the dependency closure is read (memoised), not every task: create stays cheap on a big board.
    const known = new Map<string, Task | null>();
    const lookup = (id: string): Task | null => {
      if (!known.has(id)) {
        const r = isTaskId(id) ? this.files.read(id) : null;
        known.set(id, r?.kind === 'ok' ? r.task : null);
      }
      return known.get(id)!;
    };
    const missing = deps.filter((d) => !lookup(d));
    if (missing.length) throw new TeamError('invalid', `blocked_by names unknown task(s): ${missing.join(', ')}`);
    const cycle = findCycle((id) => lookup(id)?.blocked_by ?? [], deps);
    if (cycle) throw new TeamError('invalid', `blocked_by would depend on a dependency cycle: ${cycle.join(' -> ')}`);

    ensureDir(this.paths.tasksDir);
    const task = await withLock(this.paths.hwm, () => {
      const highest = this.files.highestIdOnDisk();
      let next = Math.max(this.files.readHwm(), highest) + 1;
      const now = Date.now();
      for (;;) {
        const t: Task = {
          id: String(next),
          subject,
          description: input.description,
          status: 'pending',
          reserved_for: reservedFor,
          owner: null,
          blocked_by: deps,
          blocks: [],
          attempts: 0,
          created_at: now,
          updated_at: now,
        };
        if (this.files.createExclusive(t)) {
          this.files.writeHwm(next);
          return t;
        }
        next++; // created meanwhile outside the lock (by hand or an old version)
      }
    });
    for (const dep of deps) {
      await withLock(this.paths.task(dep), () => {
        const r = this.files.read(dep);
        if (r.kind !== 'ok' || r.task.blocks.includes(task.id)) return;
        r.task.blocks.push(task.id);
        this.files.write(r.task);
      });
    }
    return task;
  }

  /** Claim rules of §4.3, revalidated under the task's lock; one in-progress task per agent (claim gate). */
  async claim(id: string, agent: string): Promise<Task> {
    assertTaskId(id);
    return this.underGate(agent, async (noteClaim) => {
      const r = await this.claimGated(id, agent, true);
      if ('refused' in r) throw new TeamError(r.code, r.refused);
      noteClaim(r.task.id);
      return r.task;
    });
  }

  /**
   * A pending task this agent may take, roughly in id order; null when none is ready. Each agent starts at
   * its own offset among the first ready tasks so contending claimers do not all queue on the lowest id.
   */
  async claimNext(agent: string): Promise<Task | null> {
    return this.underGate(agent, async (noteClaim) => {
      const ready = this.files.scanHint().filter((t) => t.status === 'pending' && (!t.reserved_for || t.reserved_for === agent));
      const head = smallestIds(ready, 8);
      const offset = head.length ? hash(agent) % head.length : 0;
      const first = [...head.slice(offset), ...head.slice(0, offset)];
      const rest = () => ready.filter((t) => !head.includes(t)).sort(byId);
      // First pass skips tasks another process is locking right now; the second waits for those, so a
      // claim that failed elsewhere is not missed until the next change event.
      const skipped: Task[] = [];
      for (const wait of [false, true]) {
        for (const t of wait ? skipped : [...first, ...(first.length < ready.length ? rest() : [])]) {
          const r = await this.claimGated(t.id, agent, wait);
          if ('task' in r) {
            noteClaim(r.task.id);
            return r.task;
          }
          if (r.code === 'locked' && !wait) skipped.push(t);
        }
        if (!skipped.length) break;
      }
      return null;
    });
  }

  /** Roster check, then the agent's claim gate (see claim-gate.ts). */
  private async underGate<T>(agent: string, fn: (noteClaim: (id: string) => void) => Promise<T>): Promise<T> {
    await this.assertKnown(agent, 'claimer');
    return this.gates.run(agent, fn);
  }

  /** One claim attempt; a refusal is returned, not thrown (claimNext meets many and skips them). */
  private async claimGated(id: string, agent: string, waitForLock: boolean): Promise<{ task: Task } | { refused: string; code: TeamErrorCode }> {
    const fresh = this.files.readAndCache(id);
    if (fresh.kind !== 'ok') return { refused: `task ${id} not found`, code: 'not_found' };
    const early = this.whyNotClaimable(fresh.task, agent);
    if (early) return { refused: early, code: 'conflict' };
    try {
      return await withLock(
        this.paths.task(id),
        () => {
          const r = this.files.read(id);
          if (r.kind !== 'ok') return { refused: `task ${id} not found`, code: 'not_found' as const };
          const task = r.task;
          const why = this.whyNotClaimable(task, agent);
          if (why) return { refused: why, code: 'conflict' as const };
          task.owner = agent;
          task.status = 'in_progress';
          task.attempts += 1;
          task.updated_at = Date.now();
          this.files.write(task);
          return { task };
        },
        waitForLock,
      );
    } catch (err) {
      if (err instanceof TeamError && err.code === 'locked') return { refused: err.message, code: 'locked' };
      throw err;
    }
  }

  /** Only the owner of an in-progress task completes it (D-18). */
  async complete(id: string, agent: string, result?: string): Promise<Task> {
    assertTaskId(id);
    assertAgentName(agent);
    return withLock(this.paths.task(id), () => {
      const r = this.files.read(id);
      if (r.kind !== 'ok') throw new TeamError('not_found', `task ${id} not found`);
      const task = r.task;
      if (task.status !== 'in_progress') throw new TeamError('conflict', `task ${id} is ${task.status}, not in_progress`);
      if (task.owner !== agent) throw new TeamError('conflict', `task ${id} is owned by ${task.owner ?? 'nobody'}, not ${agent}`);
      const now = Date.now();
      task.status = 'completed';
      task.completed_at = now;
      task.updated_at = now;
      if (result !== undefined) task.result = result;
      this.files.write(task);
      return task;
    });
  }

  /** Back to pending, reservation kept (owner dead or its turn failed). `owner` guards against stale releases. */
  async release(id: string, owner?: string): Promise<Task | null> {
    assertTaskId(id);
    return withLock(this.paths.task(id), () => {
      const r = this.files.read(id);
      if (r.kind !== 'ok') return null;
      const task = r.task;
      if (task.status !== 'in_progress' || (owner !== undefined && task.owner !== owner)) return null;
      task.status = 'pending';
      task.owner = null;
      task.updated_at = Date.now();
      this.files.write(task);
      return task;
    });
  }

  /** A person's edit: subject, description, and (while pending) the reservation. */
  async edit(id: string, change: { subject?: string; description?: string; reservedFor?: string | null }): Promise<Task> {
    assertTaskId(id);
    const subject = change.subject?.trim();
    if (subject !== undefined && !subject) throw new TeamError('invalid', 'task subject is empty');
    if (subject && subject.length > TEAM_POLICY.maxSubjectChars) throw new TeamError('invalid', `task subject longer than ${TEAM_POLICY.maxSubjectChars} characters`);
    if (change.description !== undefined && change.description.length > TEAM_POLICY.maxDescriptionChars) {
      throw new TeamError('invalid', `task description longer than ${TEAM_POLICY.maxDescriptionChars} characters`);
    }
    const reservedFor = change.reservedFor ? await this.assertKnown(change.reservedFor, 'owner') : change.reservedFor;
    return withLock(this.paths.task(id), () => {
      const r = this.files.read(id);
      if (r.kind !== 'ok') throw new TeamError('not_found', `task ${id} not found`);
      const task = r.task;
      if (reservedFor !== undefined) {
        if (task.status !== 'pending') throw new TeamError('conflict', `task ${id} is ${task.status}; only a pending task can be reassigned`);
        task.reserved_for = reservedFor;
      }
      if (subject !== undefined) task.subject = subject;
      if (change.description !== undefined) task.description = change.description;
      task.updated_at = Date.now();
      this.files.write(task);
      return task;
    });
  }

  /**
   * Cancels a pending or in-progress task: it is closed (status completed, `cancelled: true`) so nobody
   * claims it; tasks it blocked become ready, as the person who cancelled it decided.
   */
  async cancel(id: string, by: string): Promise<Task> {
    assertTaskId(id);
    assertAgentName(by);
    return withLock(this.paths.task(id), () => {
      const r = this.files.read(id);
      if (r.kind !== 'ok') throw new TeamError('not_found', `task ${id} not found`);
      const task = r.task;
      if (task.status === 'completed') throw new TeamError('conflict', `task ${id} is already completed`);
      const now = Date.now();
      Object.assign(task, { status: 'completed', cancelled: true, cancelled_by: by, completed_at: now, updated_at: now, result: `cancelled by ${by}` });
      this.files.write(task);
      return task;
    });
  }

  private whyNotClaimable(task: Task, agent: string): string | null {
    if (task.status !== 'pending') return `task ${task.id} is ${task.status}, not pending`;
    if (task.reserved_for && task.reserved_for !== agent) return `task ${task.id} is reserved for ${task.reserved_for}`;
    for (const dep of task.blocked_by) {
      const r = this.files.read(dep);
      // A missing or unreadable blocker is not "satisfied" (D-18): the task waits for a person to fix it.
      const status = r.kind === 'ok' ? r.task.status : r.kind;
      if (status !== 'completed') return `task ${task.id} blocked by task ${dep} (status: ${status})`;
    }
    return null;
  }

  private async assertKnown(name: string, what: string): Promise<string> {
    assertAgentName(name, what);
    const known = await this.roster();
    if (!known.includes(name)) throw new TeamError('invalid', `unknown ${what} "${name}"; known: ${known.join(', ')}`);
    return name;
  }
}

const byId = (a: Task, b: Task) => Number(a.id) - Number(b.id);

/** The `k` tasks with the smallest ids, in order: O(n·k) instead of sorting the whole board per claim. */
function smallestIds(tasks: Task[], k: number): Task[] {
  const out: Task[] = [];
  for (const t of tasks) {
    if (out.length === k && byId(t, out[k - 1]!) >= 0) continue;
    let i = out.length;
    while (i > 0 && byId(t, out[i - 1]!) < 0) i--;
    out.splice(i, 0, t);
    if (out.length > k) out.pop();
  }
  return out;
}

/** Stable small hash of a name (FNV-1a), to spread claimers over the ready tasks. */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
