import { byId, hash, smallestIds } from './task-order.js';
import { type AgentLeases, ClaimGates } from './claim-gate.js';
import { ensureDir } from './fsio.js';
import { type LockGuard, type LockOptions, withLock } from './lock.js';
import type { Lease } from './lease.js';
import { assertAgentName, assertTaskId, isTaskId, LEAD } from './names.js';
import type { TeamPaths } from './paths.js';
import { describeIssues, type Task, TaskSchema, type TaskStatus } from '../../contract/store-schemas.js';
import { LIMITS } from '../../contract/limits.js';
import { findCycle } from './task-graph.js';
import type { TaskFiles } from './task-files.js';
import { TeamError, type TeamErrorCode } from './errors.js';

export interface TaskPatch {
  subject?: string;
  description?: string;
  /** New reservation (null clears it). */
  reservedFor?: string | null;
  blockedBy?: string[];
  cancel?: boolean;
  reason?: string;
  /** A completed (not cancelled) task back to pending: its work was sent back (a review asking for changes). */
  reopen?: boolean;
  /** Extra fields stored on the task (the runtime's `parked` reason). */
  extra?: Record<string, unknown>;
}

export interface NewTask {
  subject: string;
  description: string;
  /** Reservation: only this agent may claim it, before and after any release. */
  reservedFor?: string | null;
  blockedBy?: string[];
}

/**
 * The task queue: ids never reused, a reservation kept across releases, names validated before any path is
 * built, only the owner completes, and a missing blocker never counts as done.
 */
export class Tasks {
  constructor(
    private readonly paths: TeamPaths,
    private readonly files: TaskFiles,
    /** Names allowed to own tasks (roster + lead + user); throws when there is no team. */
    private readonly roster: () => Promise<string[]>,
    private readonly leases: AgentLeases,
    private readonly lockOpts: LockOptions = {},
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
    if (subject.length > LIMITS.subjectChars) throw new TeamError('invalid', `task subject longer than ${LIMITS.subjectChars} characters`);
    if (input.description.length > LIMITS.descriptionChars) throw new TeamError('invalid', `task description longer than ${LIMITS.descriptionChars} characters`);
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
    const task = await withLock(this.paths.hwm, (guard) => {
      const highest = this.files.highestIdOnDisk();
      let next = Math.max(this.files.readHwm(highest), highest) + 1;
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
        const checked = TaskSchema.safeParse(t); // what every reader will apply
        if (!checked.success) throw new TeamError('invalid', `task refused: ${describeIssues(checked.error)}`);
        if (this.files.createExclusive(t, guard)) {
          this.files.writeHwm(next, guard);
          return t;
        }
        next++; // created meanwhile outside the lock (by hand or an old version)
      }
    }, this.lockOpts);
    for (const dep of deps) {
      await withLock(this.paths.task(dep), (guard) => {
        const r = this.files.read(dep);
        if (r.kind !== 'ok' || r.task.blocks.includes(task.id)) return;
        r.task.blocks.push(task.id);
        this.files.write(r.task, guard);
      }, this.lockOpts);
    }
    return task;
  }

  /** Claim rules (pending, unblocked, unowned, reserved for the claimer or nobody), revalidated under the task's lock; one in-progress task per agent (claim gate). */
  async claim(id: string, agent: string): Promise<Task> {
    assertTaskId(id);
    return this.underGate(agent, async (noteClaim, lease) => {
      const r = await this.claimGated(id, agent, true, lease);
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
    return this.underGate(agent, async (noteClaim, lease) => {
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
          const r = await this.claimGated(t.id, agent, wait, lease);
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
  private async underGate<T>(agent: string, fn: (noteClaim: (id: string) => void, lease: Lease) => Promise<T>): Promise<T> {
    await this.assertKnown(agent, 'claimer');
    return this.gates.run(agent, fn);
  }

  /**
   * One claim attempt; a refusal is returned, not thrown (claimNext meets many and skips them). The write
   * happens under the task's lock and only while the agent's lease is still this process's, both checked
   * right before the rename: the lease is the per-agent lock behind "one in-progress task per agent".
   */
  private async claimGated(id: string, agent: string, waitForLock: boolean, lease: Lease): Promise<{ task: Task } | { refused: string; code: TeamErrorCode }> {
    const fresh = this.files.readAndCache(id);
    if (fresh.kind !== 'ok') return { refused: `task ${id} not found`, code: 'not_found' };
    const early = this.whyNotClaimable(fresh.task, agent);
    if (early) return { refused: early, code: 'conflict' };
    try {
      return await withLock(
        this.paths.task(id),
        (taskLock) => {
          const r = this.files.read(id);
          if (r.kind !== 'ok') return { refused: `task ${id} not found`, code: 'not_found' as const };
          const task = r.task;
          const why = this.whyNotClaimable(task, agent);
          if (why) return { refused: why, code: 'conflict' as const };
          task.owner = agent;
          task.status = 'in_progress';
          task.attempts += 1;
          dropRefusalOfOther(task, agent);
          task.updated_at = Date.now();
          this.files.write(task, this.withLease(taskLock, lease));
          return { task };
        },
        { wait: waitForLock, journal: this.lockOpts.journal },
      );
    } catch (err) {
      if (err instanceof TeamError && err.code === 'locked') return { refused: err.message, code: 'locked' };
      throw err;
    }
  }

  /** Only the owner of an in-progress task completes it. */
  /** `commit`: the owner's branch head it completes at (worktree teammates), kept for the landing. */
  async complete(id: string, agent: string, result?: string, commit?: string): Promise<Task> {
    assertTaskId(id);
    assertAgentName(agent);
    if (result !== undefined && result.length > LIMITS.resultChars) throw new TeamError('invalid', `task result longer than ${LIMITS.resultChars} characters`);
    const lease = this.leases.held(agent);
    lease?.assertHeld();
    return withLock(this.paths.task(id), (taskLock) => {
      const guard = this.withLease(taskLock, lease);
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
      if (commit) task.commit = commit;
      delete task.not_done;
      delete task.not_done_by;
      this.files.write(task, guard);
      return task;
    }, this.lockOpts);
  }

  /** Back to pending, reservation kept (owner dead or its turn failed). `owner` guards against stale releases. */
  async release(id: string, owner?: string): Promise<Task | null> {
    assertTaskId(id);
    const lease = owner === undefined ? undefined : this.leases.held(owner);
    lease?.assertHeld();
    return withLock(this.paths.task(id), (taskLock) => {
      const guard = this.withLease(taskLock, lease);
      const r = this.files.read(id);
      if (r.kind !== 'ok') return null;
      const task = r.task;
      if (task.status !== 'in_progress' || (owner !== undefined && task.owner !== owner)) return null;
      task.status = 'pending';
      task.owner = null;
      task.updated_at = Date.now();
      this.files.write(task, guard);
      return task;
    }, this.lockOpts);
  }

  /**
   * The lead's corrections: edit, reassign (the reservation; an in-progress task of another owner
   * goes back to pending), change blockers (validated, no cycles), cancel (closed with a reason).
   */
  async update(id: string, patch: TaskPatch): Promise<Task> {
    return (await this.change(id, patch)).task;
  }

  /** `update`, with the task as it was under the same lock: who owned it when it was cancelled (a claim may race). */
  async change(id: string, patch: TaskPatch): Promise<{ old: Task; task: Task }> {
    assertTaskId(id);
    const reserve = patch.reservedFor === undefined ? undefined : patch.reservedFor === null ? null : await this.assertKnown(patch.reservedFor, 'owner');
    let deps: string[] | undefined;
    if (patch.blockedBy) {
      deps = [...new Set(patch.blockedBy.map((d) => assertTaskId(d)))];
      if (deps.includes(id)) throw new TeamError('invalid', `task ${id} cannot block itself`);
      const missing = deps.filter((d) => this.files.read(d).kind !== 'ok');
      if (missing.length) throw new TeamError('invalid', `blocked_by names unknown task(s): ${missing.join(', ')}`);
      const edges = (t: string) => (t === id ? deps! : (() => { const r = this.files.read(t); return r.kind === 'ok' ? r.task.blocked_by : []; })());
      const cycle = findCycle(edges, [id]);
      if (cycle) throw new TeamError('invalid', `blocked_by would create a dependency cycle: ${cycle.join(' -> ')}`);
    }
    if (patch.subject !== undefined && !patch.subject.trim()) throw new TeamError('invalid', 'task subject is empty');
    const before = await withLock(this.paths.task(id), (guard) => {
      const r = this.files.read(id);
      if (r.kind !== 'ok') throw new TeamError('not_found', `task ${id} not found`);
      const task = r.task;
      const old = { ...task, blocked_by: [...task.blocked_by] };
      if (patch.subject !== undefined) task.subject = patch.subject.trim();
      if (patch.description !== undefined) task.description = patch.description;
      if (reserve !== undefined) {
        task.reserved_for = reserve;
        if (task.status === 'in_progress' && task.owner !== reserve) {
          task.status = 'pending';
          task.owner = null;
        }
        // Parked for the lead (reserved to it), the refusal stays: it is why the lead has the task.
        if (reserve !== LEAD) dropRefusalOfOther(task, reserve);
        delete task.parked;
      }
      if (deps) task.blocked_by = deps;
      if (patch.cancel) {
        if (task.status === 'completed') throw new TeamError('conflict', `task ${id} is already completed`);
        task.status = 'completed';
        task.completed_at = Date.now();
        task.result = `cancelled${patch.reason ? `: ${patch.reason}` : ''}`;
        task.cancelled = true;
      }
      if (patch.reopen) {
        if (task.status !== 'completed' || task.cancelled) throw new TeamError('conflict', `task ${id} is ${task.cancelled ? 'cancelled' : task.status}, not completed: nothing to reopen`);
        task.status = 'pending';
        task.owner = null;
        task.completed_at = null;
        task.result = null;
        delete task.commit;
        delete task.landed;
      }
      if (patch.extra) Object.assign(task, patch.extra);
      task.updated_at = Date.now();
      this.files.write(task, guard);
      return { old, task };
    }, this.lockOpts);
    // Keep `blocks` of the old and new blockers in step.
    if (deps) {
      for (const dep of new Set([...before.old.blocked_by, ...deps])) {
        await withLock(this.paths.task(dep), (guard) => {
          const r = this.files.read(dep);
          if (r.kind !== 'ok') return;
          const has = r.task.blocks.includes(id);
          const want = deps!.includes(dep);
          if (has === want) return;
          r.task.blocks = want ? [...r.task.blocks, id] : r.task.blocks.filter((b) => b !== id);
          this.files.write(r.task, guard);
        }, this.lockOpts);
      }
    }
    return before;
  }

  /**
   * The task lock plus, when this process acts as the agent, its lease: both checked right before the rename,
   * so a process that lost the lease writes nothing more as that agent (claim, complete, its own release).
   */
  private withLease(taskLock: LockGuard, lease: Lease | undefined): LockGuard {
    if (!lease) return taskLock;
    return {
      lockPath: taskLock.lockPath,
      assertHeld: () => {
        lease.assertHeld();
        taskLock.assertHeld();
      },
      deferDirSync: (dir) => taskLock.deferDirSync?.(dir),
    };
  }

  private whyNotClaimable(task: Task, agent: string): string | null {
    if (task.status !== 'pending') return `task ${task.id} is ${task.status}, not pending`;
    if (task.reserved_for && task.reserved_for !== agent) return `task ${task.id} is reserved for ${task.reserved_for}`;
    for (const dep of task.blocked_by) {
      const r = this.files.read(dep);
      // A missing or unreadable blocker is not "satisfied": the task waits for a person to fix it.
      const status = r.kind === 'ok' ? r.task.status : r.kind;
      if (status !== 'completed') return `task ${task.id} blocked by task ${dep} (status: ${status})`;
      // A cancelled blocker is closed, not done: its dependents wait until the lead changes their blockers.
      if (r.kind === 'ok' && r.task.cancelled === true) {
        return `task ${task.id} blocked by task ${dep} (${r.task.result ?? 'cancelled'}); the lead must change its blockers or cancel it`;
      }
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

/** A refused completion is its teammate's: the task gone to another (or to anyone), it no longer reads "not done". */
function dropRefusalOfOther(task: Task, agent: string | null): void {
  if (!task.not_done_by || task.not_done_by === agent) return;
  delete task.not_done;
  delete task.not_done_by;
}
