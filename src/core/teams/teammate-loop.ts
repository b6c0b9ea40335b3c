/**
 * A teammate process's life: woken by the store's change feed (a slow poll is only the net), it handles
 * control frames at once (abort_turn within a second even mid-stream, shutdown), runs one turn at a time
 * for queued messages or the next claimable task (its reserved ones first), delivers urgent messages at
 * tool boundaries, retries a failed task with backoff and then parks it for the lead.
 */
import type { Agent, PromptResult } from '../agent/agent.js';
import type { LoopEvents } from '../agent/loop.js';
import { LEAD, USER, type Message, type Task, startHeartbeat, type Heartbeat } from '../store/index.js';
import { frameMessage, isControl, sendFrame } from './protocol.js';
import type { ControlFrame, FrameOf, IdleFields } from '../../contract/frames.js';
import { pumpControl } from './teammate-control.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import type { TeamSession } from './session.js';
import type { ResponseWaiters, Waiting } from './approvals.js';
import { sessionHooks } from './hooks.js';

/** The loop's own kick comes this many feed polls apart (the feed's poll already catches a missed event). */
const LAST_RESORT_POLLS = 6;

export interface TeammateLoopOptions {
  spawnId?: string;
  model: string;
  print: (line: string) => void;
  events?: LoopEvents;
  policy?: Partial<typeof TEAM_POLICY>;
  /** Where answers to this teammate's approval requests go (the tool call waiting for them). */
  responses?: ResponseWaiters;
  /** Spending limits, asked before each model call (budget-guard.ts): a reason stops the turn there. */
  budget?: { check(): Promise<string | undefined> };
}

interface Retry {
  task: Task;
  attempt: number;
  dueAt: number;
}

export class TeammateLoop {
  private readonly policy: typeof TEAM_POLICY;
  private heartbeat!: Heartbeat;
  private turn: AbortController | undefined;
  /** The task the current turn works on (null: a message turn). */
  private turnTask: string | null = null;
  private abortedBy: string | undefined;
  /** Set when the current turn was ended because its task was cancelled. */
  private cancelledBy: string | undefined;
  /** What the model must hear at the start of its next turn (a task cancelled under it). */
  private readonly notes: string[] = [];
  private wake: (() => void) | undefined;
  private stopping: Promise<number> | undefined;
  private resolveExit!: (code: number) => void;
  private readonly done = new Promise<number>((r) => (this.resolveExit = r));
  private retry: Retry | undefined;
  private readonly attempts = new Map<string, number>();
  private waitingSince: number | undefined;
  private idleHooks: Promise<void> = Promise.resolve();
  private waitedMs = 0;
  /** Set while a budget is reached: the task that was stopped (null: a message turn), resumed on a raise. */
  private held: { task: Task | null } | undefined;

  constructor(
    private readonly session: TeamSession,
    private readonly agent: Agent,
    private readonly opts: TeammateLoopOptions,
  ) {
    this.policy = { ...TEAM_POLICY, ...opts.policy };
  }

  private get me(): string {
    return this.session.me;
  }

  async run(): Promise<number> {
    const store = this.session.team;
    const lease = this.session.lease!;
    await store.statuses.write(this.me, { status: 'spawning', spawn_id: this.opts.spawnId ?? null, model: this.opts.model, session_id: this.agent.session.id } as never);
    this.heartbeat = await startHeartbeat(store.statuses, lease);
    this.session.health.attach(this.heartbeat);
    this.session.onLeaseLost((why) => {
      // Through the lead's host the reason is the host's (a stale session, the link gone past its bound).
      this.opts.print(why ? `[${this.me}] ${why}; stopping` : `[${this.me}] lost the agent lease — another process is ${this.me} now; stopping`);
      this.turn?.abort();
      this.resolveExit(3);
    });
    await this.session.ensureEpoch();
    // THCLAWS_TEAM_POLL_MS (bench baseline only): no change feed, poll like thClaws / Claude Code do.
    const pollMs = Number(process.env.THCLAWS_TEAM_POLL_MS) || 0;
    // What wakes a teammate: its inbox, the board, the roster; never another agent's heartbeat.
    const watcher = pollMs ? null : store.watch({ safetyPollMs: this.policy.safetyPollMs, only: ['inbox', 'task', 'config'] });
    watcher?.onChange((e) => {
      if ((e.kind === 'inbox' && e.agent === this.me) || e.kind === 'task' || e.kind === 'config') this.kick();
    });
    // The feed's own poll is the net under a missed event; this rarer kick is the last resort, and it keeps
    // the process alive (every other timer and watcher is unref'd).
    const net = setInterval(() => this.kick(), pollMs || this.policy.safetyPollMs * LAST_RESORT_POLLS);
    this.opts.print(`[${this.me}] waiting for messages...`);
    const main = this.loop();
    const code = await this.done;
    clearInterval(net);
    watcher?.close();
    this.turn?.abort();
    await main.catch(() => {});
    return code;
  }

  /** Wakes the loop and handles control frames right away, even during a turn. */
  private kick(): void {
    void this.pumpControl().catch((err) => this.opts.print(`[${this.me}] inbox error: ${(err as Error).message}`));
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  /** Control frames (teammate-control.ts gates them), acted on here. */
  private pumpControl(): Promise<void> {
    return pumpControl(this.session, this.opts.responses, {
      abort: (from) => this.onAbort(from),
      cancelled: (m) => this.onCancelled(m),
      shutdown: (m) => this.onShutdown(m),
    });
  }

  private onAbort(from: string): void {
    if (!this.turn || this.turn.signal.aborted) return;
    this.abortedBy = from;
    this.opts.print(`[${this.me}] turn aborted by ${from}`);
    this.turn.abort();
  }

  /** A task this teammate works on was cancelled: the turn on it ends (as an abort does), and the model hears why next. */
  private onCancelled(m: FrameOf<'task_cancelled'>): void {
    const by = m.from === USER ? 'the person' : m.from;
    this.notes.push(`Task #${m.task_id} was cancelled by ${by}${m.reason ? ` (${m.reason})` : ''}: stop working on it and do not complete it.`);
    this.attempts.delete(m.task_id);
    if (this.retry?.task.id === m.task_id) this.retry = undefined;
    if (this.turnTask === m.task_id && this.turn && !this.turn.signal.aborted) {
      this.cancelledBy = m.from;
      this.opts.print(`[${this.me}] task #${m.task_id} cancelled by ${m.from} — turn ended`);
      this.turn.abort();
    }
  }

  private async onShutdown(m: ControlFrame): Promise<void> {
    // Waiting on a budget is not work in progress: the team may still be shut down.
    const busy = !!this.turn || (!this.held && this.session.inbox().peek().length > 0) || (!this.held && (await this.ownsWork()));
    if (busy) {
      this.opts.print(`[${this.me}] shutdown rejected — still have unfinished work`);
      await sendFrame(this.session.team, this.me, m.from, 'shutdown_rejected', { reason: 'still have unfinished work' }, this.session.epoch);
      return;
    }
    await sendFrame(this.session.team, this.me, m.from, 'shutdown_approved', {}, this.session.epoch);
    this.opts.print(`[${this.me}] shutdown approved — stopping`);
    await this.heartbeat.stop();
    this.resolveExit(0);
  }

  private async ownsWork(): Promise<boolean> {
    const tasks = await this.session.team.tasks.list({ status: 'in_progress' });
    return tasks.some((t) => t.owner === this.me);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      t.unref();
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  private async loop(): Promise<void> {
    let exited = false;
    void this.done.then(() => (exited = true));
    while (!exited) {
      try {
        await this.step(() => exited);
      } catch (err) {
        // A broken team dir (config removed, disk full) must not leave a teammate that looks idle but is deaf.
        this.opts.print(`[${this.me}] team error: ${(err as Error).message}; retrying in ${this.policy.retryBaseMs} ms`);
        await this.sleep(this.policy.retryBaseMs);
      }
    }
  }

  /** One pass: control frames, then one turn (messages, a retry, or a new task), else sleep until woken. */
  private async step(exited: () => boolean): Promise<void> {
    await this.pumpControl();
    if (exited()) return;
    if (this.held) return this.waitForBudget();
    // A task_assignment only says "look at the queue": it wakes the loop, the claim below picks the task.
    const assigned = this.session.inbox().take((m): m is FrameOf<'task_assignment'> => m.type === 'task_assignment');
    if (assigned.length) {
      for (const m of assigned) this.opts.print(`[${this.me}] task #${m.task_id} assigned by ${m.from}`);
      await this.session.inbox().ack(assigned.map((m) => m.id));
    }
    const messages = this.session.inbox().take((m) => !isControl(m));
    if (messages.length) return this.messageTurn(messages);
    if (this.retry && Date.now() >= this.retry.dueAt) {
      const r = this.retry;
      this.retry = undefined;
      return this.taskTurn(r.task);
    }
    if (!this.retry) {
      const task = await this.claim();
      if (task) return this.taskTurn(task);
    }
    await this.sleep(this.retry ? Math.max(10, this.retry.dueAt - Date.now()) : 3_600_000);
  }

  /** Reserved tasks first, then any claimable one. */
  private async claim(): Promise<Task | null> {
    const { tasks } = this.session.team;
    const mine = (await tasks.list({ status: 'pending' })).filter((t) => t.reserved_for === this.me).sort((a, b) => Number(a.id) - Number(b.id));
    for (const t of mine) {
      try {
        return await tasks.claim(t.id, this.me);
      } catch {
        // blocked or taken: try the next
      }
    }
    return tasks.claimNext(this.me);
  }

  private async messageTurn(messages: Message[]): Promise<void> {
    for (const m of messages) this.opts.print(`[${this.me}] received from '${m.from}'`);
    const prompt = messages.map(frameMessage).join('\n\n');
    const r = await this.runTurn(prompt, null);
    await this.session.inbox().ack(messages.map((m) => m.id));
    if (r.stop === 'budget') await this.holdForBudget(r.error ?? 'budget reached', null);
    else if (r.stop === 'error') {
      this.opts.print(`[${this.me}] turn failed: ${r.error}`);
      await this.notify({ idle_reason: 'failed', completed_task_id: null, completed_status: 'failed', summary: `turn failed: ${r.error}` });
    }
    else if (r.stop === 'aborted') await this.notify({ idle_reason: 'interrupted', completed_task_id: null, completed_status: null, summary: 'turn aborted' });
  }

  private async taskTurn(task: Task, resumed = false): Promise<void> {
    this.opts.print(`[${this.me}] working on task #${task.id}: ${task.subject}`);
    const prompt = resumed
      ? `[The budget was raised: continue task #${task.id} where you stopped. When done, use TeamTaskComplete with task_id="${task.id}".]`
      : `[Task #${task.id} — ${task.subject}]\n\n${task.description}\n\nWhen done, use TeamTaskComplete with task_id="${task.id}".`;
    const r = await this.runTurn(prompt, task.id);
    const now = await this.session.team.tasks.get(task.id).catch(() => null);
    if (this.cancelledBy !== undefined) {
      this.attempts.delete(task.id);
      await this.notify({ idle_reason: 'interrupted', completed_task_id: task.id, completed_status: null, summary: `task #${task.id} cancelled by ${this.cancelledBy} — turn ended, not completed` });
      return;
    }
    if (!now || now.status === 'completed' || now.owner !== this.me) {
      this.attempts.delete(task.id);
      return;
    }
    if (r.stop === 'budget') return this.holdForBudget(r.error ?? 'budget reached', now);
    if (r.stop === 'aborted') {
      // Stopped on purpose: back to the queue (reservation kept), the lead decides.
      await this.session.team.tasks.release(task.id, this.me);
      await this.notify({ idle_reason: 'interrupted', completed_task_id: task.id, completed_status: 'blocked', summary: `turn aborted${this.abortedBy ? ` by ${this.abortedBy}` : ''} — task #${task.id} released, incomplete` });
      return;
    }
    const reason = r.stop === 'error' ? `turn failed: ${r.error}` : r.stop === 'max_iterations' ? 'hit max_iterations — incomplete' : now.not_done ? `not completed: ${now.not_done}` : 'turn ended without TeamTaskComplete';
    const attempt = (this.attempts.get(task.id) ?? 0) + 1;
    this.attempts.set(task.id, attempt);
    if (attempt < this.policy.maxAttempts) {
      const delay = this.policy.retryBaseMs * 2 ** (attempt - 1);
      this.opts.print(`[${this.me}] task #${task.id} attempt ${attempt} failed (${reason}); retrying in ${delay} ms`);
      this.retry = { task: now, attempt, dueAt: Date.now() + delay };
      return;
    }
    this.attempts.delete(task.id);
    this.opts.print(`[${this.me}] task #${task.id} parked for the lead after ${attempt} attempts: ${reason}`);
    await this.session.team.tasks.update(task.id, { reservedFor: LEAD, extra: { parked: `${this.me}: ${reason} (after ${attempt} attempts)`, parked_from: now.reserved_for ?? null } });
    await this.notify({ idle_reason: r.stop === 'error' ? 'failed' : 'blocked', completed_task_id: task.id, completed_status: r.stop === 'error' ? 'failed' : 'blocked', summary: `task #${task.id} parked after ${attempt} attempts: ${reason}. Reassign it with TeamTaskUpdate.` });
  }

  private async runTurn(prompt: string, taskId: string | null): Promise<PromptResult> {
    this.turn = new AbortController();
    this.turnTask = taskId;
    this.abortedBy = undefined;
    this.cancelledBy = undefined;
    // A task cancelled under an earlier turn: the model's next input says so first.
    if (this.notes.length) prompt = `${this.notes.splice(0).map((n) => `[${n}]`).join('\n')}\n\n${prompt}`;
    await this.heartbeat.set(this.session.health.state(true), taskId);
    // Time spent waiting for a person's approval does not count against the turn budget.
    const started = Date.now();
    this.waitedMs = 0;
    let budget: NodeJS.Timeout;
    const arm = (ms: number) => {
      budget = setTimeout(() => {
        const used = Date.now() - started - this.waitedMs - (this.waitingSince ? Date.now() - this.waitingSince : 0);
        if (this.waitingSince || used < this.policy.turnBudgetMs) return arm(Math.max(1000, this.policy.turnBudgetMs - used));
        this.opts.print(`[${this.me}] turn exceeded ${this.policy.turnBudgetMs / 1000}s budget — aborting`);
        this.turn?.abort();
      }, ms);
      budget.unref();
    };
    arm(this.policy.turnBudgetMs);
    const urgentIds: string[] = [];
    let result: PromptResult | undefined;
    try {
      return (result = await this.agent.prompt(prompt, this.turn.signal, this.opts.events ?? {}, {
        ...(this.opts.budget ? { beforeModelCall: () => this.opts.budget!.check() } : {}),
        onToolBoundary: async () => {
          const urgent = this.session.inbox().take((m) => !isControl(m) && (m.urgent === true || m.from === 'user'));
          if (!urgent.length) return undefined;
          urgentIds.push(...urgent.map((m) => m.id));
          for (const m of urgent) this.opts.print(`[${this.me}] urgent message from '${m.from}' delivered mid-turn`);
          return urgent.map(frameMessage);
        },
      }));
    } finally {
      clearTimeout(budget!);
      this.turn = undefined;
      this.turnTask = null;
      if (urgentIds.length) await this.session.inbox().ack(urgentIds);
      // A turn the model could not answer leaves `error` with its reason, not a green idle.
      await this.heartbeat.set(this.session.health.onTurnEnd(result), null);
      // Informational: the teammate is idle either way; a failing hook is shown in its output and journaled.
      // One at a time, in order: a hook appending to a log never interleaves with the next idle's.
      this.idleHooks = this.idleHooks
        .then(() => sessionHooks(this.session)('TeammateIdle', { agent: this.me, last_task_id: taskId }))
        .then((v) => {
          for (const r of v.results) if (r.code !== 0 || r.timedOut) this.opts.print(`[${this.me}] TeammateIdle hook failed (${r.timedOut ? 'timeout' : `exit ${r.code}`}): ${r.command}`);
        })
        .catch(() => {});
    }
  }

  /** The turn stopped at a budget: the task stays this teammate's, parked with reason `budget`, until a raise. */
  private async holdForBudget(reason: string, task: Task | null): Promise<void> {
    this.held = { task };
    this.opts.print(`[${this.me}] ${reason}; waiting until the budget is raised`);
    // The task first: a status saying "budget reached" always finds its task parked.
    if (task) await this.session.team.tasks.update(task.id, { extra: { parked: 'budget' } });
    await this.heartbeat.patch({ budget_reached: reason });
  }

  /** Woken by any config change (budgets.json is one) or the safety poll; resumes once the budget allows. */
  private async waitForBudget(): Promise<void> {
    if (await this.opts.budget?.check()) return this.sleep(this.policy.safetyPollMs);
    const { task } = this.held!;
    this.held = undefined;
    await this.heartbeat.patch({ budget_reached: null });
    this.opts.print(`[${this.me}] budget raised — resuming${task ? ` task #${task.id}` : ''}`);
    if (!task) {
      await this.runTurn('[The budget was raised: continue where you stopped.]', null);
      return;
    }
    // Cancelled (or taken from it) while it waited: nothing to resume; its next turn hears why.
    const now = await this.session.team.tasks.get(task.id).catch(() => null);
    if (now?.status !== 'in_progress' || now.owner !== this.me) {
      this.opts.print(`[${this.me}] task #${task.id} is no longer mine (${now?.cancelled ? 'cancelled' : (now?.status ?? 'gone')}) — not resumed`);
      return;
    }
    await this.session.team.tasks.update(task.id, { extra: { parked: null } });
    return this.taskTurn(task, true);
  }

  private async notify(fields: IdleFields): Promise<void> {
    await sendFrame(this.session.team, this.me, LEAD, 'idle_notification', { ...fields }, this.session.epoch).catch(() => {});
  }

  private waitingId: string | null = null;

  /**
   * Shows (or clears) the approval this teammate waits for in its status. `onlyIf`: clear only while that
   * request is still the one shown (a deferred clear must never erase a newer request, e.g. a plan).
   */
  async setWaiting(w: Waiting | null, onlyIf?: string): Promise<void> {
    if (!w && onlyIf !== undefined && this.waitingId !== onlyIf) return;
    this.waitingId = w?.request_id ?? null;
    if (w) this.waitingSince ??= Date.now();
    else if (this.waitingSince) {
      this.waitedMs += Date.now() - this.waitingSince;
      this.waitingSince = undefined;
    }
    await this.heartbeat?.patch({ waiting: w });
  }

  /** Ends the loop (lease lost, signal). */
  stop(code = 0): Promise<number> {
    this.stopping ??= (async () => {
      this.turn?.abort();
      await this.heartbeat?.stop().catch(() => {});
      this.resolveExit(code);
      return code;
    })();
    return this.stopping;
  }
}
