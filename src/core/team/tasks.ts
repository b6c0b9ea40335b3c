import { type AgentLeases, ClaimGates } from './claim-gate.js';
import { ensureDir } from './fsio.js';
import { withLock } from './lock.js';
import { assertAgentName, assertTaskId, isTaskId } from './names.js';
import type { TeamPaths } from './paths.js';
import { TEAM_POLICY } from './policy.js';
import type { Task, TaskStatus } from './schemas.js';
import { findCycle } from './task-graph.js';
import type { TaskFiles } from './task-files.js';
import { TeamError } from './errors.js';

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
      const t = await this.claimGated(id, agent, true);
      noteClaim(t.id);
      return t;
    });
  }

  /**
   * A pending task this agent may take, roughly in id order; null when none is ready. Each agent starts at
   * its own offset among the first ready tasks so contending claimers do not all queue on the lowest id.
   */
  async claimNext(agent: string): Promise<Task | null> {
    return this.underGate(agent, async (noteClaim) => {
      const ready = this.files.scanHint().filter((t) => t.status === 'pending' && (!t.reserved_for || t.reserved_for === agent));
      const spread = Math.min(ready.length, 8);
      const offset = spread ? hash(agent) % spread : 0;
      const order = [...ready.slice(offset, spread), ...ready.slice(0, offset), ...ready.slice(spread)];
      // First pass skips tasks another process is locking right now; the second waits for those, so a
      // claim that failed elsewhere is not missed until the next change event.
      const skipped: Task[] = [];
      for (const wait of [false, true]) {
        for (const t of wait ? skipped : order) {
          try {
            const claimed = await this.claimGated(t.id, agent, wait);
            noteClaim(claimed.id);
            return claimed;
          } catch (err) {
            if (!(err instanceof TeamError)) throw err;
            if (err.code === 'locked' && !wait) skipped.push(t);
            else if (err.code !== 'conflict' && err.code !== 'not_found') throw err;
          }
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

  private async claimGated(id: string, agent: string, waitForLock: boolean): Promise<Task> {
    const fresh = this.files.readAndCache(id);
    if (fresh.kind !== 'ok') throw new TeamError('not_found', `task ${id} not found`);
    this.checkClaimable(fresh.task, agent);
    const claimed = await withLock(
      this.paths.task(id),
      () => {
        const r = this.files.read(id);
        if (r.kind !== 'ok') throw new TeamError('not_found', `task ${id} not found`);
        const task = r.task;
        this.checkClaimable(task, agent);
        task.owner = agent;
        task.status = 'in_progress';
        task.attempts += 1;
        task.updated_at = Date.now();
        this.files.write(task);
        return task;
      },
      waitForLock,
    );
    return claimed;
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

  private checkClaimable(task: Task, agent: string): void {
    if (task.status !== 'pending') throw new TeamError('conflict', `task ${task.id} is ${task.status}, not pending`);
    if (task.reserved_for && task.reserved_for !== agent) throw new TeamError('conflict', `task ${task.id} is reserved for ${task.reserved_for}`);
    for (const dep of task.blocked_by) {
      const r = this.files.read(dep);
      // A missing or unreadable blocker is not "satisfied" (D-18): the task waits for a person to fix it.
      const status = r.kind === 'ok' ? r.task.status : r.kind;
      if (status !== 'completed') throw new TeamError('conflict', `task ${task.id} blocked by task ${dep} (status: ${status})`);
    }
  }

  private async assertKnown(name: string, what: string): Promise<string> {
    assertAgentName(name, what);
    const known = await this.roster();
    if (!known.includes(name)) throw new TeamError('invalid', `unknown ${what} "${name}"; known: ${known.join(', ')}`);
    return name;
  }
}

/** Stable small hash of a name (FNV-1a), to spread claimers over the ready tasks. */
function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
