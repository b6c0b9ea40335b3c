/**
 * Approvals of a teammate's actions: what is pending (a teammate's status `waiting` field, shown only while
 * the teammate lives), and the one way to answer (a `permission_response` / `plan_approval_response` frame
 * from `lead` or `user`, matched by request id). The CLI, the lead's AnswerApproval tool and the desktop
 * app all answer through `answerApproval`.
 */
import { deriveState, editFileLocked, isLive, LEAD, TeamError, USER, type Message, type ReadResult, type TeamStore } from '../store/index.js';
import { sendFrame } from './protocol.js';
import type { FrameOf } from '../../contract/frames.js';
import type { Waiting } from '../../contract/store-schemas.js';

export type ApprovalKind = 'permission' | 'plan';

/** What a teammate waits for, written into its status while it waits (the store's schema). */
export type { Waiting };

export interface Answer {
  allow: boolean;
  /** Store the request's rule so later calls of the same rule run without asking. */
  always?: boolean;
  /** `team`: the rule applies to every teammate; default: this teammate only. */
  ruleScope?: 'teammate' | 'team';
  feedback?: string;
}

/**
 * Every live teammate's pending request, oldest first. A dead or stopped teammate's request is never listed,
 * nor one past its deadline (the teammate denies it as timed out; an answer could no longer count).
 */
export async function pendingApprovals(store: TeamStore, now = Date.now()): Promise<Waiting[]> {
  return (await waitingRequests(store, now)).filter((w) => now <= w.deadline);
}

async function waitingRequests(store: TeamStore, now: number): Promise<Waiting[]> {
  const cfg = await store.config.load().catch(() => null);
  const out: Waiting[] = [];
  for (const m of cfg?.members ?? []) {
    const st = await store.statuses.read(m.name).catch(() => null);
    const w = st?.waiting;
    if (!w || !isLive(deriveState(st, now))) continue;
    out.push(w);
  }
  return out.sort((a, b) => a.since - b.since);
}

/** Answers a pending request as `from` (`user` or `lead`). Unknown or already answered ids are refused. */
/** How many first answers per teammate are remembered (a teammate has at most one request pending at a time). */
const ANSWERS_KEPT = 200;

interface FirstAnswer {
  from: string;
  allow: boolean;
  at: number;
}

function answersOf(r: ReadResult): Record<string, FirstAnswer> {
  if (r.kind !== 'ok') return {};
  try {
    const value: unknown = JSON.parse(r.text);
    return value && typeof value === 'object' ? (value as Record<string, FirstAnswer>) : {};
  } catch {
    return {};
  }
}

/**
 * Sends the answer, once per request id: under the teammate's answers lock the first answer is recorded, and a
 * later one (a racing CLI, dashboard click or lead tool) is refused with who answered first instead of
 * reporting a success the teammate then drops as a duplicate.
 */
export async function answerApproval(store: TeamStore, from: string, requestId: string, answer: Answer): Promise<{ waiting: Waiting; message: Message }> {
  if (from !== USER && from !== LEAD) throw new TeamError('invalid', `only lead or user may answer an approval, not "${from}"`);
  const notPending = () => new TeamError('not_found', `no pending approval request "${requestId}" (answered already, timed out, or its teammate is not running); see thclaws team approvals`);
  const find = async () => {
    const now = Date.now();
    const w = (await waitingRequests(store, now)).find((x) => x.request_id === requestId);
    if (w && now > w.deadline) throw new TeamError('not_found', `approval request "${requestId}" of ${w.agent} timed out at ${new Date(w.deadline).toLocaleTimeString()}; it was denied and ${w.agent} was told so`);
    return w;
  };
  const first = await find();
  if (!first) throw notPending();
  const file = store.paths.answers(first.agent);
  return editFileLocked(file, async (current) => {
    const answers = answersOf(current);
    const prior = answers[requestId];
    if (prior) throw new TeamError('conflict', `approval request "${requestId}" was already ${prior.allow ? 'approved' : 'denied'} by ${prior.from === USER ? 'the person' : prior.from}`);
    // Re-read under the lock: it may have timed out or been withdrawn while this waited.
    const waiting = await find();
    if (!waiting) throw notPending();
    const type = waiting.kind === 'plan' ? 'plan_approval_response' : 'permission_response';
    const message = await sendFrame(store, from, waiting.agent, type, {
      request_id: requestId,
      allow: answer.allow,
      scope: answer.always && answer.allow ? 'always-for-this-rule' : 'once',
      rule_scope: answer.ruleScope ?? 'teammate',
      ...(answer.feedback ? { feedback: answer.feedback } : {}),
    });
    const kept = Object.entries(answers).slice(-(ANSWERS_KEPT - 1));
    return { write: JSON.stringify(Object.fromEntries([...kept, [requestId, { from, allow: answer.allow, at: Date.now() }]])), result: { waiting, message } };
  });
}

export interface Response {
  allow: boolean;
  always: boolean;
  ruleScope: 'teammate' | 'team';
  feedback: string | null;
  from: string;
}

/**
 * The teammate's side: its tool call waits here for the answer to one request id. The loop hands every
 * response frame (sender and epoch already checked) to `deliver`; the first answer wins, anything else is
 * late or a duplicate and reported as not accepted.
 */
export class ResponseWaiters {
  private readonly pending = new Map<string, (r: Response) => void>();

  wait(requestId: string, timeoutMs: number, signal: AbortSignal): Promise<Response | 'timeout' | 'aborted'> {
    return new Promise((resolve) => {
      const done = (v: Response | 'timeout' | 'aborted') => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(requestId);
        resolve(v);
      };
      // A delay past a timer's range would fire at once.
      const timer = setTimeout(() => done('timeout'), Math.min(timeoutMs, 2_147_483_647));
      const onAbort = () => done('aborted');
      if (signal.aborted) return done('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(requestId, (r) => done(r));
    });
  }

  /** true when the frame answered a request this process waits for. */
  deliver(m: FrameOf<'permission_response' | 'plan_approval_response'>): boolean {
    const resolve = this.pending.get(m.request_id);
    if (!resolve) return false;
    resolve({ allow: m.allow, always: m.scope === 'always-for-this-rule', ruleScope: m.rule_scope, feedback: m.feedback ?? null, from: m.from });
    return true;
  }
}
