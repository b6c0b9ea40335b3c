/**
 * A teammate's control frames, read at once even mid-turn: gated (only the lead or the person, this session's
 * epoch), acked so each acts at most once, then handed to the loop. An approval answer goes to its waiting
 * tool call before its ack, so a crash in between re-delivers it (the waiter takes each id once).
 */
import { frameEpochCurrent, isControl, mayControl } from './protocol.js';
import type { ControlFrame, FrameOf } from '../../contract/frames.js';
import type { TeamSession } from './session.js';
import type { ResponseWaiters } from './approvals.js';

/** What the loop does for each kind of control frame that passed the gate. */
export interface ControlActions {
  abort(from: string): void;
  cancelled(m: FrameOf<'task_cancelled'>): void;
  shutdown(m: ControlFrame): Promise<void>;
}

export async function pumpControl(session: TeamSession, responses: ResponseWaiters | undefined, act: ControlActions): Promise<void> {
  const q = session.inbox();
  for (const m of q.take((x) => isControl(x))) {
    const answer = m.type === 'permission_response' || m.type === 'plan_approval_response';
    if (!answer) await q.ack([m.id]);
    try {
      await controlFrame(session, responses, act, m);
    } finally {
      if (answer) await q.ack([m.id]);
    }
  }
}

async function controlFrame(session: TeamSession, responses: ResponseWaiters | undefined, act: ControlActions, m: ControlFrame): Promise<void> {
  const { team: store, me } = session;
  const reject = (reason: string) => store.journal.record({ event: 'rejected', file: store.paths.inbox(me), reason });
  if (!mayControl(m.from)) return reject(`control frame ${m.type} from ${m.from} ignored: only lead or user may send it`);
  // A teammate that started while the config was unreadable has no epoch yet: it starts one now.
  if (!frameEpochCurrent(m, (await session.refreshEpoch()) ?? (await session.ensureEpoch()))) return reject(`stale ${m.type} from an earlier session ignored`);
  if (m.type === 'permission_response' || m.type === 'plan_approval_response') {
    if (!responses?.deliver(m)) reject(`${m.type} from ${m.from} for ${m.request_id} ignored: no such pending request (late or duplicate)`);
  } else if (m.type === 'abort_turn') act.abort(m.from);
  else if (m.type === 'shutdown_request') await act.shutdown(m);
  else if (m.type === 'task_cancelled') act.cancelled(m);
}
