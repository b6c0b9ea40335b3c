/**
 * Session transcripts: one JSONL file per session under `<root>/.thclaws/sessions/<id>.jsonl`.
 * Line 1 is a `meta` record; then one `message` record per conversation message and a `usage` record
 * per model call. Appends are synchronous so a crash loses at most the line being written.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ChatMessage, Usage } from './providers/types.js';
import { addUsage, emptyUsage } from './providers/types.js';

export type SessionRecord =
  | { type: 'meta'; id: string; createdAt: string; model: string; provider: string; cwd: string; agentName?: string }
  | { type: 'message'; at: string; message: ChatMessage }
  | { type: 'usage'; at: string; model: string; usage: Usage; costUsd?: number };

export class SessionError extends Error {
  override name = 'SessionError';
}

const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function sessionsDir(projectRoot: string): string {
  return path.join(projectRoot, '.thclaws', 'sessions');
}

/** A UUID, as Claude Code and its Agent SDK expect; older time-stamped ids (`20261129-194500-a1b2c3`) still resume. */
export function newSessionId(): string {
  return randomUUID();
}

/** The `agentName` of a session file's meta line (undefined: the person's session, or no readable meta). */
function metaAgentOf(file: string): string | undefined {
  let head = '';
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(4096);
      head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
    const meta = JSON.parse(head.split('\n', 1)[0]!) as { type?: unknown; agentName?: unknown };
    return meta.type === 'meta' && typeof meta.agentName === 'string' ? meta.agentName : undefined;
  } catch {
    return undefined;
  }
}

export class SessionStore {
  readonly file: string;

  private constructor(
    readonly id: string,
    dir: string,
    /** False: nothing is written (`--no-session-persistence`); `file` names where it would have been. */
    readonly persisted = true,
  ) {
    this.file = path.join(dir, `${id}.jsonl`);
  }

  static create(projectRoot: string, meta: Omit<Extract<SessionRecord, { type: 'meta' }>, 'type' | 'id' | 'createdAt'>, opts: { persist?: boolean } = {}): SessionStore {
    const dir = sessionsDir(projectRoot);
    const persist = opts.persist ?? true;
    if (persist) mkdirSync(dir, { recursive: true });
    const store = new SessionStore(newSessionId(), dir, persist);
    store.append({ type: 'meta', id: store.id, createdAt: new Date().toISOString(), ...meta });
    return store;
  }

  /**
   * The id of the most recently written session of the project (`--continue`) that belongs to `agentName`
   * (undefined: the person's own, not a teammate's; teammates keep theirs in the same folder), if any.
   */
  static newest(projectRoot: string, agentName?: string): string | undefined {
    const dir = sessionsDir(projectRoot);
    if (!existsSync(dir)) return undefined;
    let best: { id: string; at: number } | undefined;
    for (const f of readdirSync(dir)) {
      const id = f.endsWith('.jsonl') ? f.slice(0, -6) : '';
      if (!ID_RE.test(id)) continue;
      if (metaAgentOf(path.join(dir, f)) !== agentName) continue;
      const at = statSync(path.join(dir, f)).mtimeMs;
      if (!best || at > best.at) best = { id, at };
    }
    return best?.id;
  }

  /** Opens an existing session for appending and returns its messages and usage so far. */
  static resume(projectRoot: string, id: string, opts: { persist?: boolean } = {}): { store: SessionStore; messages: ChatMessage[]; usage: Usage } {
    if (!ID_RE.test(id)) throw new SessionError(`invalid session id "${id}"`);
    const store = new SessionStore(id, sessionsDir(projectRoot), opts.persist ?? true);
    if (!existsSync(store.file)) {
      throw new SessionError(`no session "${id}" in ${sessionsDir(projectRoot)} (a session run with --no-session-persistence, the Agent SDK's persistSession: false, was never saved)`);
    }
    const { messages, usage } = readSession(store.file);
    return { store, messages, usage };
  }

  append(record: SessionRecord): void {
    if (!this.persisted) return;
    appendFileSync(this.file, `${JSON.stringify(record)}\n`);
  }

  appendMessage(message: ChatMessage): void {
    this.append({ type: 'message', at: new Date().toISOString(), message });
  }
}

/** Reads a transcript; a torn last line (crash mid-write) is skipped, other bad lines are errors. */
export function readSession(file: string): { messages: ChatMessage[]; usage: Usage } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const messages: ChatMessage[] = [];
  let usage = emptyUsage();
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let rec: SessionRecord;
    try {
      rec = JSON.parse(line) as SessionRecord;
    } catch {
      if (i >= lines.length - 2) return;
      throw new SessionError(`${file}:${i + 1}: not valid JSON`);
    }
    if (rec.type === 'message') messages.push(rec.message);
    else if (rec.type === 'usage') usage = addUsage(usage, rec.usage);
  });
  return { messages: repairTail(messages), usage };
}

/**
 * A session that ended mid-turn may end with tool calls that never got results, or with an unanswered
 * prompt; the API rejects both, so close them the way an abort would.
 */
function repairTail(messages: ChatMessage[]): ChatMessage[] {
  const last = messages[messages.length - 1];
  if (!last) return messages;
  if (last.role === 'assistant') {
    const calls = last.content.filter((b) => b.type === 'tool_use');
    if (calls.length) {
      messages.push({
        role: 'user',
        content: calls.map((c) => ({ type: 'tool_result' as const, tool_use_id: (c as { id: string }).id, content: 'not run: session ended', is_error: true })),
      });
      messages.push({ role: 'assistant', content: [{ type: 'text', text: '[session ended here]' }] });
    }
  } else {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: '[session ended here]' }] });
  }
  return messages;
}
