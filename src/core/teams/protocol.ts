/**
 * Protocol frames on the wire: parsing a stored message at the inbox boundary, who may control, session epochs,
 * and `sendFrame`, the one way a typed message reaches an inbox. The frame union itself lives in
 * `contract/frames.ts`.
 */
import { randomUUID } from 'node:crypto';
import type { Message, TeamStore } from '../store/index.js';
import type { TeammateStore } from '../store/teammate-store.js';
import { LEAD, TeamError, USER } from '../store/index.js';
import { CONTROL_TYPES, type FrameType } from '../../contract/frame-kinds.js';
import { type ControlFrame, type Frame, type FrameFields, FrameSchema, type Inbound, type PlainMessage } from '../../contract/frames.js';

/** Parses one stored message at the inbox boundary: a frame of an unknown kind or with bad fields is refused. */
export function toInbound(m: Message): { ok: true; message: Inbound } | { ok: false; reason: string } {
  if (m.type === undefined) return { ok: true, message: m as PlainMessage };
  const res = FrameSchema.safeParse(m);
  if (res.success) return { ok: true, message: res.data };
  const issue = res.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `malformed ${m.type} frame from ${m.from} dropped: ${where}${issue?.message ?? 'invalid'}` };
}

/** Whoever may send a control frame: the lead and the person. A teammate's control frame is dropped. */
export function mayControl(from: string): boolean {
  return from === LEAD || from === USER;
}

export function isControl(m: Inbound): m is ControlFrame {
  return (CONTROL_TYPES as readonly string[]).includes(m.type ?? '');
}

/** The epoch of the current team session (set by the lead when it takes the team). */
export async function currentEpoch(store: Pick<TeammateStore, 'config'>): Promise<string | null> {
  return (await store.config.load())?.epoch ?? null;
}

/** Starts a new session epoch: every control frame and reply of earlier sessions becomes stale. */
export async function bumpEpoch(store: TeamStore, epoch: string): Promise<void> {
  await store.config.update((cfg) => {
    cfg.epoch = epoch;
  });
}

/**
 * The team's epoch, starting one when no lead ever took the team (a teammate started by hand): the first
 * process that needs one sets it under the config lock, so every process agrees; a lead that takes the
 * team later starts a new one as always (answers of the lead-less session then become stale).
 */
export async function ensureEpoch(store: TeamStore, by: string): Promise<string | null> {
  const current = await currentEpoch(store).catch(() => null);
  if (current) return current;
  let set: string | null = null;
  try {
    await store.config.update((cfg) => {
      if (typeof cfg.epoch !== 'string') cfg.epoch = set = randomUUID();
    });
  } catch {
    // No readable config right now (removed, being rewritten): the loop reports that itself; no epoch yet.
    return currentEpoch(store).catch(() => null);
  }
  if (set) store.journal.record({ event: 'note', file: store.paths.config, reason: `no lead has taken the team: ${by} started session epoch ${set}` });
  return currentEpoch(store);
}

/**
 * Writes a frame as `sender` (the caller's lease-backed identity), stamped with the current epoch: the one way a
 * typed message reaches an inbox. `shown`: the text and summary a reader shows (default: the fields as JSON).
 */
export async function sendFrame<T extends FrameType>(store: Pick<TeammateStore, 'config' | 'writeFrame'>, sender: string, to: string, type: T, fields: FrameFields<T>, epoch?: string | null, shown?: { text: string; summary: string }): Promise<Message> {
  const ep = epoch ?? (await currentEpoch(store));
  const text = shown?.text ?? JSON.stringify({ type, from: sender, ...fields });
  // A frame's own `summary` field (idle notifications, requests) doubles as the message summary.
  const own = (fields as { summary?: unknown }).summary;
  const summary = shown?.summary ?? (typeof own === 'string' ? own : type.replace(/_/g, ' '));
  // The kind's own fields are checked here, where the frame is written, not only where it is read.
  const checked = FrameSchema.safeParse({ id: 'new', from: sender, to, text, timestamp: Date.now(), type, ...fields, epoch: ep });
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new TeamError('invalid', `${type} frame refused: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const [m] = await store.writeFrame(sender, to, text, type, { summary, extra: { ...fields, epoch: ep } });
  return m!;
}

/** Whether a frame belongs to the current session. */
export function frameEpochCurrent(m: Frame, epoch: string | null): boolean {
  return epoch !== null && m.epoch === epoch;
}

/** How a message is framed as (part of) a turn prompt. */
export function frameMessage(m: Pick<Message, 'from' | 'summary' | 'text'>): string {
  const attrs = [`from="${m.from}"`, ...(m.summary ? [`summary="${m.summary.replace(/"/g, "'")}"`] : [])].join(' ');
  return `<teammate_message ${attrs}>\n${m.text}\n</teammate_message>`;
}
