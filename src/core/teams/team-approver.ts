/**
 * A teammate's approver in `ask` mode: writes inside its own worktree and calls an allow rule covers
 * (settings `teammateAllow`, `teammates.<name>.allow`, re-read at each question so a rule added meanwhile
 * counts) run; anything else becomes a `permission_request` to the lead's inbox and waits for the answer
 * of the person or the lead. No answer within the timeout denies, and says so.
 */
import { filePathOf } from '../agent/tool-input.js';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { isInside } from '../fs-paths.js';
import { ruleMatches } from '../agent/permission-rules.js';
import { addTeammateAllowRule, loadSettings } from '../agent/settings.js';
import type { Approver, ApproverAnswer, PermissionRequest } from '../agent/types.js';
import { LEAD } from '../store/index.js';
import type { ResponseWaiters, Waiting } from './approvals.js';
import { sessionHooks } from './hooks.js';
import { sendFrame } from './protocol.js';
import type { TeamSession } from './session.js';

export interface TeamApproverOptions {
  cwd: string;
  /** The teammate's own worktree: writes inside it need no question. */
  worktree?: string;
  waiters: ResponseWaiters;
  /** `onlyIf`: clear only while that request is still the one shown. */
  setWaiting(w: Waiting | null, onlyIf?: string): Promise<void>;
  print(line: string): void;
  timeoutMs: number;
  /** Awaited before a request is published: what the call needs to start at once when approved (the sandbox). */
  beforeAsk?(req: PermissionRequest): Promise<void>;
}

/** A frame's copy of the input stays small; the summary always says what would run. */
const INPUT_MAX_CHARS = 20_000;

/** The summary repeats the command: a long one is cut so the request frame stays within a message's limits. */
const SUMMARY_MAX_CHARS = 900;
/** A rule longer than this is neither shown nor offered for "always" (the frame has to stay small). */
const RULE_MAX_CHARS = 2_000;

function capSummary(summary: string): string {
  return summary.length <= SUMMARY_MAX_CHARS ? summary : `${summary.slice(0, SUMMARY_MAX_CHARS)}… (${summary.length - SUMMARY_MAX_CHARS} more characters)`;
}

function capInput(input: unknown): unknown {
  const json = JSON.stringify(input) ?? 'null';
  return json.length <= INPUT_MAX_CHARS ? input : { truncated: true, preview: json.slice(0, INPUT_MAX_CHARS) };
}

export class TeamApprover implements Approver {
  /** "always" answers of this process, in force at once (the settings file keeps them for later runs). */
  private readonly granted: string[] = [];
  /** The previous request's `waiting: null`, written after its call started. */
  private clearing: Promise<void> = Promise.resolve();
  /** Settles when the question being asked now has its answer. */
  private asking: Promise<void> = Promise.resolve();

  constructor(
    private readonly session: TeamSession,
    private readonly opts: TeamApproverOptions,
  ) {}

  private get me(): string {
    return this.session.me;
  }

  /** Allow rules for this teammate now: the team's and its own, from the settings files, plus this run's. */
  rules(): string[] {
    try {
      const s = loadSettings(this.session.projectRoot).settings;
      return [...s.teammateAllow, ...(s.teammates[this.me]?.allow ?? []), ...this.granted];
    } catch (err) {
      this.opts.print(`[${this.me}] settings unreadable, asking without rules: ${(err as Error).message}`);
      return [...this.granted];
    }
  }

  private ownWrite(req: PermissionRequest): boolean {
    if ((req.tool !== 'Write' && req.tool !== 'Edit') || !this.opts.worktree) return false;
    const p = filePathOf(req.input);
    return typeof p === 'string' && isInside(path.resolve(this.opts.cwd, p), this.opts.worktree);
  }

  private allowedWithoutAsking(req: PermissionRequest): boolean {
    // A call an ask rule covers asks even inside the worktree and past allow rules.
    if (req.askRule) return false;
    if (this.ownWrite(req)) return true;
    const scope = { cwd: this.opts.cwd, projectRoot: this.session.projectRoot };
    return this.rules().some((r) => ruleMatches(r, req, scope));
  }

  async decide(req: PermissionRequest, signal: AbortSignal): Promise<ApproverAnswer> {
    if (this.allowedWithoutAsking(req)) return 'allow';
    // One question at a time: the status shows one request, so calls of one turn that run concurrently
    // (reads under an ask rule) wait their turn instead of hiding each other's request.
    const previous = this.asking;
    let release!: () => void;
    this.asking = new Promise<void>((r) => (release = r));
    try {
      await previous;
      if (signal.aborted) return { deny: 'aborted while waiting for approval' };
      // An "always" answer to the question before may cover this call.
      if (this.allowedWithoutAsking(req)) return 'allow';
      return await this.ask(req, signal);
    } finally {
      release();
    }
  }

  private async ask(req: PermissionRequest, signal: AbortSignal): Promise<ApproverAnswer> {
    const store = this.session.team;
    await this.clearing;
    // Before the request exists (its age and deadline count from when the person can see it).
    await this.opts.beforeAsk?.(req);
    const epoch = await this.session.refreshEpoch();
    const now = Date.now();
    const waiting: Waiting = {
      request_id: randomUUID(),
      kind: 'permission',
      agent: this.me,
      tool: req.tool,
      summary: capSummary(req.summary),
      input: capInput(req.input),
      cwd: this.opts.cwd,
      epoch,
      // Under an ask rule "always" could store nothing that stops the next question: no rule is offered.
      // Nor for a rule too long to show and store (a command whose first words are huge).
      ...(req.scope && !req.askRule && req.scope.length <= RULE_MAX_CHARS ? { rule: req.scope } : {}),
      ...(req.askRule ? { ask_rule: req.askRule } : {}),
      since: now,
      deadline: now + this.opts.timeoutMs,
    };
    // PermissionRequest hooks see every request; one that prints {"decision":"allow"|"deny","reason"} answers it.
    const hook = await sessionHooks(this.session)('PermissionRequest', { agent: this.me, request_id: waiting.request_id, tool_name: req.tool, tool_input: req.input, summary: req.summary, rule: req.scope ?? null, ask_rule: req.askRule ?? null }, req.tool);
    for (const r of hook.results) {
      if (r.code !== 0 || r.timedOut) {
        this.opts.print(`[${this.me}] PermissionRequest hook failed (${r.timedOut ? 'timeout' : `exit ${r.code}`}): ${r.command}`);
        continue;
      }
      const decision = hookDecision(r.stdout);
      if (decision?.decision === 'allow') return 'allow';
      if (decision?.decision === 'deny') return { deny: `denied by a PermissionRequest hook${decision.reason ? `: ${decision.reason}` : ''}` };
    }
    await this.opts.setWaiting(waiting);
    try {
      const answered = this.opts.waiters.wait(waiting.request_id, this.opts.timeoutMs, signal);
      const { since: _s, deadline: _d, ...fields } = waiting;
      await sendFrame(store, this.me, LEAD, 'permission_request', { ...fields, kind: 'permission' }, epoch);
      this.opts.print(`[${this.me}] waiting for approval ${waiting.request_id}: ${waiting.summary}`);
      const r = await answered;
      if (r === 'aborted') return { deny: 'aborted while waiting for approval' };
      if (r === 'timeout') {
        const why = `no answer to permission request ${waiting.request_id} within ${Math.round(this.opts.timeoutMs / 1000)} s — denied (timeout); ask the lead or try another way`;
        store.journal.record({ event: 'note', file: store.paths.status(this.me), reason: why });
        this.opts.print(`[${this.me}] ${why}`);
        return { deny: why };
      }
      if (!r.allow) {
        this.opts.print(`[${this.me}] ${req.tool} denied by ${r.from}${r.feedback ? `: ${r.feedback}` : ''}`);
        return { deny: `denied by ${r.from === 'user' ? 'the person' : r.from}${r.feedback ? `: ${r.feedback}` : ' (no reason given)'}` };
      }
      if (r.always && req.scope && waiting.rule) {
        this.granted.push(req.scope);
        try {
          await addTeammateAllowRule(this.session.projectRoot, req.scope, r.ruleScope === 'team' ? null : this.me);
        } catch (err) {
          this.opts.print(`[${this.me}] could not store the rule ${req.scope}: ${(err as Error).message}`);
        }
        this.opts.print(`[${this.me}] ${req.tool} allowed by ${r.from}; from now on ${req.scope} runs without asking${r.ruleScope === 'team' ? ' for the whole team' : ''}`);
      } else this.opts.print(`[${this.me}] ${req.tool} allowed by ${r.from}`);
      return 'allow';
    } finally {
      // After the approved call has started (its spawn is synchronous from here): the status write and its
      // fsync are not on the path from the answer to the tool. The next request waits for this clear.
      this.clearing = new Promise<void>((r) => setImmediate(r)).then(() => this.opts.setWaiting(null, waiting.request_id)).catch(() => {});
    }
  }
}

function hookDecision(stdout: string): { decision: string; reason?: string } | undefined {
  const text = stdout.trim();
  if (!text.startsWith('{')) return undefined;
  try {
    const v = JSON.parse(text) as { decision?: unknown; reason?: unknown };
    return typeof v.decision === 'string' ? { decision: v.decision, ...(typeof v.reason === 'string' ? { reason: v.reason } : {}) } : undefined;
  } catch {
    return undefined;
  }
}
