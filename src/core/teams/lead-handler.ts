/**
 * The lead's side of the team, shared by the REPL, `-p` and the desktop host: teammate messages become
 * lead turns, content-free idle notifications are only shown, stale and forged frames are dropped, and a
 * watchdog reports a teammate that is really dead (pid gone or silent past the stale limit), never a slow one.
 */
import { deriveState, isLive, type Message, type Task } from '../store/index.js';
import { frameEpochCurrent, frameMessage } from './protocol.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import type { TeamSession } from './session.js';

export type LeadEvent =
  | { kind: 'message'; from: string; text: string }
  | { kind: 'idle'; from: string; reason: string | null; task: string | null; summary: string | null; fed: boolean }
  | { kind: 'shutdown_reply'; from: string; approved: boolean; reason: string | null }
  | { kind: 'dead'; agent: string; released: string[] }
  | { kind: 'status'; agent: string; state: string; task: string | null }
  | { kind: 'dropped'; from: string; type: string; why: string }
  /** A teammate waits for an answer (permission or plan); `fed`: the lead's model answers it. */
  | { kind: 'approval'; from: string; request_id: string; approval: 'permission' | 'plan'; tool: string; summary: string; fed: boolean };

/**
 * How a teammate's idle notification reads, to the lead's model and in its terminal: a failed teammate is not
 * idle, so it reads "[alice failed: <why>]" (on a task: "[alice failed on task #1] <summary>").
 */
export function idleNotice(n: { from: string; reason: string | null; task: string | null; status?: string | null; summary: string | null }): string {
  if (n.reason === 'failed') {
    if (n.task) return `[${n.from} failed on task #${n.task}] ${n.summary ?? ''}`.trim();
    const why = n.summary?.replace(/^turn failed: /, '');
    return `[${n.from} failed${why ? `: ${why}` : ''}]`;
  }
  return `[${n.from} is idle: ${n.reason ?? '-'}${n.task ? `, task #${n.task}${n.status ? ` ${n.status}` : ''}` : ''}] ${n.summary ?? ''}`.trim();
}

export interface LeadBatch {
  /** The framed prompt of one lead turn, or null when nothing needs the model. */
  prompt: string | null;
  /** Ack after the turn ran (at-least-once: a crash before the ack re-delivers). */
  ids: string[];
}

export class LeadHandler {
  private readonly listeners = new Set<(e: LeadEvent) => void>();
  private readonly wakers = new Set<() => void>();
  private readonly warned = new Set<string>();
  private readonly synthetic: string[] = [];
  private watchdogTimer: NodeJS.Timeout | undefined;
  private closeWatch: (() => void) | undefined;

  constructor(
    private readonly session: TeamSession,
    private readonly policy: { watchdogMs: number } = TEAM_POLICY,
  ) {}

  onEvent(cb: (e: LeadEvent) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  /** Called whenever there may be something new (inbox change, watchdog finding). */
  onWake(cb: () => void): () => void {
    this.wakers.add(cb);
    return () => this.wakers.delete(cb);
  }

  start(): void {
    if (this.closeWatch) return;
    const w = this.session.store.watch();
    w.onChange((e) => {
      if (e.kind === 'inbox' && e.agent === 'lead') this.wake();
      else if (e.kind === 'status') {
        void this.noteStatus(e.agent);
        this.wake();
      } else if (e.kind === 'task') this.wake();
    });
    this.closeWatch = () => w.close();
    this.watchdogTimer = setInterval(() => void this.watchdog(), this.policy.watchdogMs);
    this.watchdogTimer.unref();
  }

  stop(): void {
    this.closeWatch?.();
    this.closeWatch = undefined;
    if (this.watchdogTimer) clearInterval(this.watchdogTimer);
  }

  private readonly lastState = new Map<string, string>();

  /** A member's state change (spawning → idle → working …), once per change. */
  private async noteStatus(agent: string): Promise<void> {
    if (agent === 'lead') return;
    const st = await this.session.store.statuses.read(agent).catch(() => null);
    const state = deriveState(st);
    const key = `${state}:${st?.current_task ?? ''}`;
    if (this.lastState.get(agent) === key) return;
    this.lastState.set(agent, key);
    this.emit({ kind: 'status', agent, state, task: st?.current_task ?? null });
  }

  private wake(): void {
    for (const w of this.wakers) w();
  }

  private emit(e: LeadEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** Takes what arrived; frames are classified now, plain messages framed into one prompt. */
  drain(): LeadBatch {
    const msgs = this.session.inbox().take();
    const fed: Message[] = [];
    const ids: string[] = [];
    for (const m of msgs) {
      ids.push(m.id);
      if (!m.type) {
        this.emit({ kind: 'message', from: m.from, text: m.text });
        fed.push(m);
        continue;
      }
      if (!frameEpochCurrent(m, this.session.epoch)) {
        this.emit({ kind: 'dropped', from: m.from, type: m.type, why: 'from an earlier session' });
        continue;
      }
      if (m.type === 'idle_notification') {
        const { completed_task_id: task, completed_status: status, summary } = m;
        // Content-free idles are shown, never fed as turns (they caused lead/teammate ping-pong).
        const feed = task !== null || status !== null;
        this.emit({ kind: 'idle', from: m.from, reason: m.idle_reason, task, summary, fed: feed });
        if (feed) fed.push({ ...m, text: idleNotice({ from: m.from, reason: m.idle_reason, task, status, summary }) });
      } else if (m.type === 'permission_request' || m.type === 'plan_approval_request') {
        const approval = m.type === 'plan_approval_request' ? 'plan' : 'permission';
        const byLead = this.session.opts.approvers?.[approval] === 'lead';
        this.emit({ kind: 'approval', from: m.from, request_id: m.request_id, approval, tool: m.tool, summary: m.summary, fed: byLead });
        if (byLead) {
          const body =
            m.type === 'plan_approval_request'
              ? `${m.from} submitted a plan (attempt ${m.attempt}) for approval:\n\n${m.plan}`
              : `${m.from} asks permission for ${m.tool}: ${m.summary} (cwd ${m.cwd})`;
          fed.push({ ...m, text: `${body}\n\nAnswer with AnswerApproval {request_id: "${m.request_id}", allow, feedback?}.` });
        }
      } else if (m.type === 'team_changed') {
        // The person changed the team from the dashboard: the lead hears of it before it next plans.
        const summary = m.summary || 'the team changed';
        this.emit({ kind: 'message', from: m.from, text: summary });
        fed.push({ ...m, text: `[team change] ${summary}` });
      } else if (m.type === 'budget_notice') {
        // The lead may reassign the work or ask the person to raise the budget.
        this.emit({ kind: 'message', from: m.from, text: m.summary });
        fed.push({ ...m, text: `[${m.from}'s ${m.summary}]${m.level === 'reached' ? ` ${m.from} has stopped and waits until the budget is raised (thclaws team budget).` : ''}` });
      } else if (m.type === 'conflict_warning') {
        // The dashboard saw two teammates' work conflict: the lead re-plans on it like on any message.
        this.emit({ kind: 'message', from: m.from, text: m.text });
        fed.push(m);
      } else if (m.type === 'shutdown_approved' || m.type === 'shutdown_rejected') {
        this.emit({ kind: 'shutdown_reply', from: m.from, approved: m.type === 'shutdown_approved', reason: m.type === 'shutdown_rejected' ? (m.reason ?? null) : null });
      } else {
        this.emit({ kind: 'dropped', from: m.from, type: m.type, why: 'not a frame the lead acts on' });
      }
    }
    const parts = [...this.synthetic.splice(0).map((t) => `<teammate_message from="watchdog">\n${t}\n</teammate_message>`), ...fed.map(frameMessage)];
    return { prompt: parts.length ? parts.join('\n\n') : null, ids };
  }

  async ack(ids: string[]): Promise<void> {
    if (ids.length) await this.session.inbox().ack(ids);
  }

  /** Reports each death once; a teammate that comes back is watched again. Releases its tasks. */
  async watchdog(): Promise<void> {
    const cfg = await this.session.store.config.load().catch(() => null);
    if (!cfg) return;
    for (const m of cfg.members) {
      const st = await this.session.store.statuses.read(m.name).catch(() => null);
      const state = deriveState(st);
      if (isLive(state)) {
        this.warned.delete(m.name);
        continue;
      }
      if (state !== 'dead' || this.warned.has(m.name)) continue;
      this.warned.add(m.name);
      const released = (await this.session.store.reapDeadOwners()).map((t) => t.id);
      this.emit({ kind: 'dead', agent: m.name, released });
      this.synthetic.push(
        `Teammate '${m.name}' is not running (its process is gone or silent for over 15 s; last status ${st?.status ?? '?'}).${released.length ? ` Task(s) ${released.map((r) => `#${r}`).join(', ')} went back to pending with their reservation.` : ''} Respawn it with SpawnTeammate (a worktree teammate continues in its worktree) or reassign its work with TeamTaskUpdate.`,
      );
      this.wake();
    }
  }

  /**
   * The progress, and whether the team is done: nothing open, nobody busy, and nothing new in the lead's inbox.
   * The inbox is read again after the progress: a teammate sends its last notice (its task's idle notification)
   * before its status says idle, so a notice that landed after the caller's drain is always there by now
   * (a lead that ended on the first reading missed that notice and its turn: the merge, under load).
   */
  async settle(): Promise<{ progress: Awaited<ReturnType<LeadHandler['progress']>>; done: boolean; late: LeadBatch }> {
    const progress = await this.progress();
    if (progress.open > 0 || progress.busy.length > 0) return { progress, done: false, late: { prompt: null, ids: [] } };
    const late = this.drain();
    return { progress, done: !late.prompt, late };
  }

  /** Teammates that are live and not idle, and unfinished tasks: the team is done when both are empty. */
  /**
   * The team's progress. `budget`: the reason the open work cannot go on because of a spending limit (every
   * open task waits on a teammate held at its budget, or every live teammate is held), else null.
   */
  async progress(): Promise<{ busy: string[]; open: number; total: number; live: string[]; budget: string | null; held: BudgetHeld | null }> {
    const cfg = await this.session.store.config.load();
    const busy: string[] = [];
    const live: string[] = [];
    const held = new Map<string, string>();
    for (const m of cfg?.members ?? []) {
      const st = await this.session.store.statuses.read(m.name);
      const state = deriveState(st);
      if (isLive(state)) live.push(m.name);
      // A teammate held at its budget takes no message or task until a person raises it.
      if (isLive(state) && st?.budget_reached) held.set(m.name, st.budget_reached);
      else if (state === 'working' || state === 'spawning' || (isLive(state) && this.session.store.inboxes.unread(m.name).length > 0)) busy.push(m.name);
    }
    const tasks = await this.session.store.tasks.list();
    const open = tasks.filter((t) => t.status !== 'completed');
    const h = busy.length ? null : budgetHeld(open, live, held);
    return { busy, open: open.length, total: tasks.length, live, budget: h && budgetBlock(open, live, held), held: h };
  }
}

/** Why no open task can go on for budget reasons: the reason, who is held, the open tasks, the limit to raise. */
export interface BudgetHeld {
  reason: string;
  who: string[];
  open: number;
  /** `thclaws team budget` target: a name, `--team` or `--role <role>`. */
  target: string;
}

/** See `budgetBlock`; null when one can go on or none is held. */
export function budgetHeld(open: readonly Task[], live: readonly string[], held: ReadonlyMap<string, string>): BudgetHeld | null {
  if (!held.size || !open.length) return null;
  const waits = (t: Task) => t.parked === 'budget' || (t.owner ? held.has(t.owner) : !!t.reserved_for && held.has(t.reserved_for));
  if (live.some((n) => !held.has(n)) && !open.every(waits)) return null;
  const [name, reason] = [...held][0]!;
  const target = reason.includes("the team's budget") ? '--team' : reason.includes('role budget') ? '--role <role>' : name;
  return { reason: reason.replace(/^budget reached — /, 'budget reached: '), who: [...held.keys()], open: open.length, target };
}

/** Why no open task can go on for budget reasons (see `progress`), or null when one can or none is held. */
export function budgetBlock(open: readonly Task[], live: readonly string[], held: ReadonlyMap<string, string>): string | null {
  const h = budgetHeld(open, live, held);
  if (!h) return null;
  return `${h.reason} (${h.who.join(', ')} ${h.who.length > 1 ? 'wait' : 'waits'} with ${h.open} task(s) open; raise it with thclaws team budget ${h.target} --usd N|--tokens N)`;
}

/**
 * The same once a print run has stopped the held teammates on its way out: raising the budget alone no longer
 * helps, so it says they were stopped and the command that starts them again on their saved conversations.
 */
export function budgetStopped(h: BudgetHeld, root: string): string {
  const who = h.who.join(', ');
  const dir = /^[\w@%+=:,./-]+$/.test(root) ? root : `'${root.replace(/'/g, `'\\''`)}'`;
  return `${h.reason} (${who} ${h.who.length > 1 ? 'were' : 'was'} stopped with ${h.open} task(s) open; to go on, raise it with thclaws team budget ${h.target} --usd N|--tokens N, then start ${h.who.length > 1 ? 'them' : who} again with thclaws team resume --dir ${dir})`;
}
