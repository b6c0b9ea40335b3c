import { randomUUID } from 'node:crypto';
import { appendLine, parseJson, readTextFile, writeFileAtomic, ensureDir } from './fsio.js';
import type { Journal } from './journal.js';
import { withLock } from './lock.js';
import { assertAgentName } from './names.js';
import type { TeamPaths } from './paths.js';
import { TEAM_POLICY } from '../../contract/policy.js';
import { LIMITS } from '../../contract/limits.js';
import { describeIssues, type Message, MessageSchema } from '../../contract/store-schemas.js';
import { TeamError } from './errors.js';
import { isFrameType, type FrameType } from '../../contract/frame-kinds.js';

export interface NewMessage {
  from: string;
  to: string;
  text: string;
  summary?: string | null;
  /** A protocol frame's kind (only `TeamStore.writeFrame` sets one); absent for plain text. */
  type?: FrameType;
  /** Extra fields of protocol frames (request_id, …) stored beside the standard ones. */
  extra?: Record<string, unknown>;
}

type Parsed =
  | { state: 'missing' | 'ok'; messages: Message[]; invalid: Array<{ raw: unknown; reason: string }> }
  | { state: 'corrupt'; reason: string };

/** thClaws wrote `content` and unix seconds; accept both instead of rejecting the whole file. */
function normalizeLegacy(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const m = { ...(raw as Record<string, unknown>) };
  if ((m.text === undefined || m.text === '') && typeof m.content === 'string') m.text = m.content;
  if (typeof m.timestamp === 'number' && m.timestamp < 1e11) m.timestamp = Math.round(m.timestamp * 1000);
  return m;
}

function parseInbox(file: string): Parsed {
  const r = readTextFile(file);
  if (r.kind === 'missing') return { state: 'missing', messages: [], invalid: [] };
  if (r.kind === 'unreadable') return { state: 'corrupt', reason: r.reason };
  if (!r.text.trim()) return { state: 'ok', messages: [], invalid: [] };
  const json = parseJson(r.text);
  if (!json.ok) return { state: 'corrupt', reason: json.reason };
  if (!Array.isArray(json.value)) return { state: 'corrupt', reason: 'not a JSON array' };
  const messages: Message[] = [];
  const invalid: Array<{ raw: unknown; reason: string }> = [];
  for (const raw of json.value) {
    const res = MessageSchema.safeParse(normalizeLegacy(raw));
    if (res.success) messages.push(res.data);
    else invalid.push({ raw, reason: describeIssues(res.error) });
  }
  return { state: 'ok', messages, invalid };
}

/** Per-agent JSON-array inboxes: append, read unread, mark read, bounded by archiving old read messages. */
export class Inboxes {
  constructor(
    private readonly paths: TeamPaths,
    private readonly journal: Journal,
  ) {}

  /** Lock-free read (writers replace the file atomically). A corrupt file is quarantined under the lock. */
  list(agent: string): Message[] {
    const file = this.paths.inbox(agent);
    const parsed = parseInbox(file);
    if (parsed.state !== 'corrupt') return parsed.messages;
    return [];
  }

  unread(agent: string): Message[] {
    return this.list(agent).filter((m) => !m.read);
  }

  /**
   * Like `list`, but first repairs what `list` skips — a corrupt file moved aside, bad messages moved to the
   * rejected log, both journalled — so a person reading the inbox learns about it. Writes nothing otherwise.
   */
  async read(agent: string): Promise<Message[]> {
    const parsed = parseInbox(this.paths.inbox(agent));
    if (parsed.state === 'corrupt' || (parsed.state === 'ok' && parsed.invalid.length)) await this.mutate(agent, () => false);
    return this.list(agent);
  }

  async append(msg: NewMessage): Promise<Message> {
    assertAgentName(msg.to, 'recipient');
    assertAgentName(msg.from, 'sender');
    if (msg.text.length > LIMITS.messageChars) {
      throw new TeamError('invalid', `message too long: ${msg.text.length} characters (limit ${LIMITS.messageChars})`);
    }
    if (msg.type !== undefined && !isFrameType(msg.type)) throw new TeamError('invalid', `unknown frame kind "${String(msg.type)}": not in the protocol's schema`);
    if (msg.summary && msg.summary.length > LIMITS.summaryChars) {
      throw new TeamError('invalid', `message summary too long: ${msg.summary.length} characters (limit ${LIMITS.summaryChars})`);
    }
    const message: Message = {
      ...msg.extra,
      id: randomUUID(),
      from: msg.from,
      to: msg.to,
      text: msg.text,
      summary: msg.summary ?? summarize(msg.text),
      timestamp: Date.now(),
      read: false,
      ...(msg.type ? { type: msg.type } : {}),
    };
    // The rules every reader applies: what is accepted here is never moved to rejected.jsonl later.
    const checked = MessageSchema.safeParse(message);
    if (!checked.success) throw new TeamError('invalid', `message refused: ${describeIssues(checked.error)}`);
    await this.mutate(msg.to, (messages) => {
      messages.push(message);
      return true;
    });
    return message;
  }

  /** Marks the given ids read; unknown ids are ignored (another consumer may have archived them). */
  async markRead(agent: string, ids: Iterable<string>): Promise<number> {
    const wanted = new Set(ids);
    let count = 0;
    await this.mutate(agent, (messages) => {
      for (const m of messages) {
        if (!m.read && wanted.has(m.id)) {
          m.read = true;
          count++;
        }
      }
      return count > 0;
    });
    return count;
  }

  /** Read-modify-write under the inbox lock; `change` returns whether it changed anything. */
  private async mutate(agent: string, change: (messages: Message[]) => boolean): Promise<void> {
    const file = this.paths.inbox(agent);
    ensureDir(this.paths.inboxesDir);
    await withLock(file, (guard) => {
      const parsed = parseInbox(file);
      let messages: Message[] = [];
      let dirty = false;
      if (parsed.state === 'corrupt') {
        this.journal.quarantine(file, parsed.reason);
        dirty = true;
      } else {
        messages = parsed.messages;
        if (parsed.invalid.length) {
          for (const bad of parsed.invalid) {
            appendLine(this.paths.rejected(agent), JSON.stringify({ ts: Date.now(), reason: bad.reason, message: bad.raw }), true);
            this.journal.record({ event: 'rejected', file, reason: bad.reason, moved_to: this.paths.rejected(agent) });
          }
          dirty = true;
        }
      }
      if (change(messages)) dirty = true;
      if (this.compact(agent, messages)) dirty = true;
      if (dirty || parsed.state === 'missing') writeFileAtomic(file, JSON.stringify(messages, null, 1), { guard });
    }, { journal: this.journal });
  }

  /** Keeps append cost flat: read messages beyond the limit move to the archive, oldest first. */
  private compact(agent: string, messages: Message[]): boolean {
    let readCount = 0;
    for (const m of messages) if (m.read) readCount++;
    const excess = readCount - TEAM_POLICY.inboxKeepRead;
    if (excess <= 0) return false;
    let toMove = excess;
    const archived: string[] = [];
    const kept = messages.filter((m) => {
      if (!m.read || toMove === 0) return true;
      toMove--;
      archived.push(JSON.stringify(m));
      return false;
    });
    messages.length = 0;
    messages.push(...kept);
    // Archive before the inbox rewrite: a crash in between duplicates into the archive, never loses.
    appendLine(this.paths.archive(agent), archived.join('\n'), true);
    return true;
  }
}

/** The first 8 words, as thClaws computes it, when the sender gave no summary (cut to the summary limit). */
export function summarize(text: string): string {
  return text.trim().split(/\s+/, 8).join(' ').slice(0, LIMITS.summaryChars);
}
