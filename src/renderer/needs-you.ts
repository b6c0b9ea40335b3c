/**
 * The "needs you" queue: everything waiting on the person, derived from what the page already receives
 * (approvals, members, conflict warnings, the last merge run). An item is there exactly while its cause is:
 * the request answered, the error cleared, the budget raised, the merge run again, the conflict gone.
 */
import type { ApprovalView, ConflictWarningView, Member } from '../contract/api';

export type NeedKind = 'approval' | 'error' | 'budget' | 'merge' | 'conflict';

export interface NeedItem {
  /** Stable while the cause lasts: a new cause (another request, another error) is a new item. */
  key: string;
  kind: NeedKind;
  /** The agent it is about (a conflict: the first of its two). */
  agent: string | null;
  /** One line: who and what. */
  title: string;
  /** The reason or the command, when there is one. */
  detail: string;
  /** When it began (a request's own time, else when this page first saw it), ms. */
  since: number;
}

export interface NeedSources {
  approvals: ApprovalView[];
  members: Member[];
  warnings: ConflictWarningView[];
  mergeResult: unknown;
}

/** The failed check of a merge run's result (`merge_done`), if one failed. */
function failedCheck(result: unknown): { command: string; code: number | null } | null {
  const failed = (result as { failed?: unknown } | null)?.failed as { command?: unknown; code?: unknown } | null | undefined;
  if (!failed || typeof failed.command !== 'string') return null;
  return { command: failed.command, code: typeof failed.code === 'number' ? failed.code : null };
}

/** The refused completion the host reports as `error` is a task to redo, not a model failure: same item, its words. */
const taskNotDone = (m: Member) => /^task #\S+ not done: /.test(m.error ?? '');

/** A model failure the person fixes in Settings (the key, the endpoint), rather than in the agent's pane. */
export function fixedInSettings(detail: string): boolean {
  return /key refused|\(401\)|\(403\)|cannot reach |no API key/i.test(detail);
}

/** The current causes, unordered, each with the time it is known to have begun (null: first seen now). */
function causes(src: NeedSources): Array<Omit<NeedItem, 'since'> & { since: number | null }> {
  const out: Array<Omit<NeedItem, 'since'> & { since: number | null }> = [];
  for (const a of src.approvals) {
    const what = a.kind === 'plan' ? `plan, attempt ${a.attempt ?? 1}` : a.tool;
    out.push({ key: `approval:${a.request_id}`, kind: 'approval', agent: a.agent, title: `${a.agent} asks to approve: ${what}`, detail: a.kind === 'plan' ? '' : (a.detail ?? a.summary), since: a.since });
  }
  for (const m of src.members) {
    if (m.state === 'error') {
      const detail = m.error ?? 'see its pane';
      const title = taskNotDone(m) ? `${m.name}: a task is not done` : `${m.name} is in error`;
      out.push({ key: `error:${m.name}:${detail}`, kind: 'error', agent: m.name, title, detail, since: null });
    }
    if (m.budget_reached) out.push({ key: `budget:${m.name}:${m.budget_reached}`, kind: 'budget', agent: m.name, title: `${m.name} stopped: budget reached`, detail: m.budget_reached.replace(/^budget reached — /, ''), since: null });
  }
  const failed = failedCheck(src.mergeResult);
  if (failed) out.push({ key: `merge:${failed.command}:${failed.code}`, kind: 'merge', agent: null, title: 'A merge failed its checks; nothing landed', detail: `"${failed.command}" exited ${failed.code ?? '(killed)'}`, since: null });
  for (const w of src.warnings) {
    if (w.kind !== 'conflict') continue;
    const files = w.files.filter((f) => f.conflict).map((f) => f.path);
    out.push({ key: `conflict:${w.id}`, kind: 'conflict', agent: w.agents[0], title: `Conflict: ${w.agents[0]} and ${w.agents[1]}`, detail: files.join(', '), since: null });
  }
  return out;
}

/**
 * The queue, newest first. `seen` remembers when this page first saw each key (updated in place: a key whose
 * cause is gone is forgotten, so the same cause coming back later is new again).
 */
export function needsYou(src: NeedSources, seen: Map<string, number>, now: number): NeedItem[] {
  const items = causes(src).map((c) => {
    const since = c.since ?? seen.get(c.key) ?? now;
    seen.set(c.key, since);
    return { ...c, since };
  });
  const live = new Set(items.map((i) => i.key));
  for (const k of seen.keys()) if (!live.has(k)) seen.delete(k);
  // Newest first; ties (seen together) in a fixed order so the list does not shuffle.
  return items.sort((a, b) => b.since - a.since || a.key.localeCompare(b.key));
}
