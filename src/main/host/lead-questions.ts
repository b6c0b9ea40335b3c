import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApprovalView } from '../../contract/api.js';
import type { HostSideInfo } from './views.js';

const PREFIX = 'lead-question-';

/** A tool's input as the card's JSON (null when absent or too long to show whole). */
export function inputJson(input: unknown): string | null {
  if (input === undefined || input === null) return null;
  const s = JSON.stringify(input);
  return s.length <= 20_000 ? s : null;
}

interface Question {
  id: string;
  kind: 'permission' | 'trust';
  tool: string;
  summary: string;
  detail: string | null;
  rule: string | null;
  input?: unknown;
  cwd: string;
  since: number;
}

/**
 * The lead REPL's own questions (folder trust, y/n/a permissions) as approval cards. The host names a file in
 * a private directory (THCLAWS_QUESTION_FILE); the REPL writes its question there while it waits and removes it
 * once answered. A card's answer is typed into the lead's terminal (`y`, `n`, `a`), exactly what a person typing
 * in the pane would send, so both ways keep working.
 */
export class LeadQuestions {
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-lead-q-'));
  readonly file = path.join(this.dir, 'question.json');
  private current: Question | null = null;
  /** The lead's running tool the page is told about (`TeamCreate`), from the REPL's `activity.json`. */
  private activity: string | null = null;
  private readonly watcher: fs.FSWatcher;

  /** `side`: the host's per-agent info, where the lead's pending question is kept for its badge. */
  constructor(
    private readonly side: Map<string, HostSideInfo>,
    private readonly changed: () => void,
  ) {
    this.watcher = fs.watch(this.dir, () => this.poll());
    this.watcher.on('error', () => {});
  }

  env(): Record<string, string> {
    return { THCLAWS_QUESTION_FILE: this.file };
  }

  /** Re-reads the question and the running tool (the watcher calls it; the liveness tick too, as a safety net). */
  poll(): void {
    let next: Question | null = null;
    try {
      const q = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Question;
      if (typeof q.id === 'string' && (q.kind === 'permission' || q.kind === 'trust')) next = q;
    } catch {
      // none, or half-written (the REPL renames into place, so only a foreign write)
    }
    let activity: string | null = null;
    try {
      const a = JSON.parse(fs.readFileSync(path.join(this.dir, 'activity.json'), 'utf8')) as { tool?: unknown };
      if (typeof a.tool === 'string') activity = a.tool.slice(0, 200);
    } catch {
      // no tool the dashboard is told about runs
    }
    if ((next?.id ?? null) === (this.current?.id ?? null) && activity === this.activity) return;
    this.current = next;
    this.activity = activity;
    this.side.set('lead', { ...(this.side.get('lead') ?? { pty: null, spawnedHere: true, lastExit: null }), waitingFor: this.waitingFor, activity });
    this.changed();
  }

  /** The request id of the pending question, for the lead's "waiting for you". */
  get waitingFor(): string | null {
    return this.current ? `${PREFIX}${this.current.id}` : null;
  }

  items(): ApprovalView[] {
    const q = this.current;
    if (!q) return [];
    return [
      {
        request_id: `${PREFIX}${q.id}`,
        kind: 'permission',
        agent: 'lead',
        tool: q.tool.slice(0, 200),
        summary: q.summary.slice(0, 2000),
        detail: q.detail?.slice(0, 20_000) ?? null,
        cwd: q.cwd.slice(0, 4096),
        plan: null,
        attempt: null,
        rule: q.kind === 'trust' ? null : (q.rule?.slice(0, 2000) ?? null),
        input: inputJson(q.input),
        since: q.since,
        deadline: q.since + 365 * 24 * 3600_000, // the REPL waits as long as it takes
      },
    ];
  }

  /** Answers the lead's question through its terminal; false when `requestId` is not the lead's pending one. */
  answer(requestId: string, allow: boolean, always: boolean, type: (data: string) => boolean): boolean {
    if (!requestId.startsWith(PREFIX)) return false;
    if (requestId !== this.waitingFor) throw new Error('the lead is no longer asking that question');
    const key = !allow ? 'n' : always && this.current?.kind === 'permission' && this.current.rule ? 'a' : 'y';
    if (!type(`${key}\r`)) throw new Error('the lead is not running in this dashboard');
    return true;
  }

  close(): void {
    this.watcher.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
