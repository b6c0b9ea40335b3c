/**
 * Review comments on a teammate's changes: a comment must be about a line in that teammate's diff; "send
 * review" delivers every pending comment as one message from `user` (path:line, the lines, the text), which
 * the teammate reads at its next tool boundary like any message from the person.
 */
import { TeamError, USER, type ReviewComment, type TeamStore } from '../store/index.js';
import { filePatch, newSideText, teammateChanges, type FileChange, type TeammateChanges } from './changes.js';
import { followRange, storeBlob } from './comment-follow.js';

/** New-side line ranges of a patch's hunks (the lines a comment may be about). */
export function newSideRanges(patch: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const m of patch.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(m[1]);
    const count = m[2] === undefined ? 1 : Number(m[2]);
    if (count > 0) out.push({ start, end: start + count - 1 });
  }
  return out;
}

/** The file a comment on `path` is about: the newest source wins (untracked, unstaged, staged, committed). */
export function fileFor(changes: TeammateChanges, p: string): FileChange | undefined {
  const order = ['untracked', 'unstaged', 'staged', 'committed'];
  return changes.files.filter((f) => f.path === p && f.status !== 'deleted').sort((a, b) => order.indexOf(a.source) - order.indexOf(b.source))[0];
}

/** The lines a comment quotes, cut to what the review store keeps (200 lines of 2,000 characters: minified code stays commentable). */
function linesOf(text: string, line: number, end: number): string[] {
  return text
    .split('\n')
    .slice(line - 1, Math.min(end, line + 199))
    .map((l) => l.slice(0, 2000));
}

export interface CommentInput {
  path: string;
  line: number;
  end_line?: number | null;
  text: string;
}

/**
 * Checks a comment against the teammate's current diff and returns it with the lines it is about; throws
 * TeamError('invalid') for a path or line that is not in the diff, before anything is written.
 */
export async function resolveComment(root: string, changes: TeammateChanges, c: CommentInput): Promise<{ path: string; line: number; end_line: number | null; lines: string[]; text: string; blob: string | null }> {
  const text = c.text.trim();
  if (!text) throw new TeamError('invalid', 'a review comment needs text');
  const end = c.end_line ?? c.line;
  if (!Number.isInteger(c.line) || c.line < 1 || end < c.line) throw new TeamError('invalid', `invalid line ${c.line}${c.end_line ? `-${c.end_line}` : ''} for ${JSON.stringify(c.path)}`);
  const file = fileFor(changes, c.path);
  if (!file) throw new TeamError('invalid', `${JSON.stringify(c.path)} is not in ${changes.agent}'s changes`);
  if (file.binary || file.huge) throw new TeamError('invalid', `${JSON.stringify(c.path)} is ${file.huge ? 'too large' : 'binary'}: it has no lines to comment on`);
  const body = await newSideText(root, changes, file);
  if (body === null) throw new TeamError('invalid', `${JSON.stringify(c.path)} cannot be read from ${changes.agent}'s changes`);
  if (file.source !== 'untracked') {
    const patch = (await filePatch(root, changes, file)) ?? '';
    const ranges = newSideRanges(patch);
    const inDiff = (n: number) => ranges.some((r) => n >= r.start && n <= r.end);
    if (!inDiff(c.line) || !inDiff(end)) throw new TeamError('invalid', `${JSON.stringify(c.path)}:${c.line}${end !== c.line ? `-${end}` : ''} is not in the lines ${changes.agent} changed (${ranges.map((r) => `${r.start}-${r.end}`).join(', ') || 'none'})`);
  } else if (end > body.split('\n').length) {
    throw new TeamError('invalid', `${JSON.stringify(c.path)}:${c.line} is past the end of the file`);
  }
  // The version commented on, kept so the comment can follow its lines through the teammate's next commits.
  return { path: c.path, line: c.line, end_line: c.end_line ?? null, lines: linesOf(body, c.line, end), text, blob: await storeBlob(root, body) };
}

/** Not yet sent: pending, or outdated before it was sent (sent marked as written on an earlier version). */
export function unsent(c: ReviewComment): boolean {
  return c.state === 'pending' || (c.state === 'outdated' && !c.sent_at);
}

/** The one message a review becomes. */
export function reviewMessage(comments: ReviewComment[]): string {
  const parts = [`Review of your changes from the person (${comments.length} comment${comments.length === 1 ? '' : 's'}). Please address each one:`];
  for (const c of comments) {
    const earlier = c.state !== 'outdated' ? '' : c.gone ? ' (written on an earlier version of your changes; this file is no longer in them)' : ' (written on an earlier version of this file; these lines have changed since)';
    const where = `${c.path}:${c.line}${c.end_line && c.end_line !== c.line ? `-${c.end_line}` : ''}${earlier}`;
    const quoted = c.lines.map((l) => `    > ${l}`).join('\n');
    parts.push(`\n${where}\n${quoted}\n  ${c.text.split('\n').join('\n  ')}`);
  }
  return parts.join('\n');
}

/** Sends every pending comment as one message; the comments become `sent`. Returns what was sent. */
export async function sendReview(store: TeamStore, agent: string): Promise<{ sent: ReviewComment[]; message: string | null }> {
  // Claim the pending comments under the file's lock first, so two senders at once deliver each comment once.
  // An outdated one that was never sent goes too (marked as written on an earlier version): none is dropped.
  let pending: ReviewComment[] = [];
  const now = Date.now();
  await store.reviews.modify(agent, (list) => {
    pending = list.filter(unsent);
    return list.map((c) => (unsent(c) ? { ...c, state: c.state === 'pending' ? ('sent' as const) : c.state, sent_at: now } : c));
  });
  if (!pending.length) return { sent: [], message: null };
  const message = reviewMessage(pending);
  try {
    await store.send(USER, agent, message, { summary: `review: ${pending.length} comment${pending.length === 1 ? '' : 's'}` });
  } catch (err) {
    const back = new Map(pending.map((c) => [c.id, c]));
    await store.reviews.modify(agent, (list) => list.map((c) => (back.has(c.id) && c.sent_at === now ? { ...c, state: back.get(c.id)!.state, sent_at: null } : c)));
    throw err;
  }
  return { sent: pending, message };
}

/**
 * "Request changes": the review is sent, and the teammate's last completed task is reopened (pending, still
 * reserved for it) with the review as its new description, so the work goes back on the board, not only
 * into its inbox. Returns the reopened task's id (null when it had none completed).
 */
export async function requestChanges(store: TeamStore, agent: string): Promise<{ sent: ReviewComment[]; message: string | null; reopened: string | null }> {
  const r = await sendReview(store, agent);
  if (!r.message) return { ...r, reopened: null };
  const done = (await store.tasks.list({ status: 'completed' })).filter((t) => t.owner === agent && !t.cancelled).sort((a, b) => (b.completed_at ?? 0) - (a.completed_at ?? 0))[0];
  if (!done) return { ...r, reopened: null };
  await store.tasks.update(done.id, { reopen: true, reservedFor: agent, description: `${r.message}\n\n(Reopened by the person's review. The task before: ${done.description})`.slice(0, 20_000) });
  return { ...r, reopened: done.id };
}

/** Adds comments (checked against the diff first, all or none) and sends them with any pending ones. */
export async function reviewAndSend(store: TeamStore, root: string, agent: string, comments: CommentInput[], opts: { requestChanges?: boolean } = {}): Promise<{ sent: ReviewComment[]; message: string | null; reopened: string | null }> {
  await assertMember(store, agent);
  const changes = await teammateChanges(root, agent);
  const resolved = [];
  for (const c of comments) resolved.push(await resolveComment(root, changes, c));
  for (const r of resolved) await store.reviews.add(agent, r);
  return opts.requestChanges ? requestChanges(store, agent) : { ...(await sendReview(store, agent)), reopened: null };
}

export async function assertMember(store: TeamStore, agent: string): Promise<void> {
  const cfg = await store.config.load();
  if (!cfg?.members.some((m) => m.name === agent)) throw new TeamError('invalid', `unknown teammate "${agent}"`);
}

/**
 * Follows pending and sent comments to where their lines are now in the teammate's version (see
 * comment-follow.ts); a comment whose lines changed, or whose file left the diff, becomes `outdated` (`gone`
 * for the latter). Returns the ids it changed.
 */
export async function markOutdated(store: TeamStore, root: string, changes: TeammateChanges): Promise<string[]> {
  const comments = await store.reviews.list(changes.agent);
  const next = new Map<string, Partial<ReviewComment>>();
  const bodies = new Map<string, string | null>();
  for (const c of comments) {
    if (c.state !== 'pending' && c.state !== 'sent') continue;
    if (!bodies.has(c.path)) {
      const file = fileFor(changes, c.path);
      bodies.set(c.path, file ? await newSideText(root, changes, file).catch(() => null) : null);
    }
    const body = bodies.get(c.path)!;
    if (body === null) {
      next.set(c.id, { state: 'outdated', gone: true });
      continue;
    }
    const end = c.end_line ?? c.line;
    // A comment from before versions were kept: only the text at its line number to go by.
    const at = c.blob ? await followRange(root, c.blob, body, c.line, end) : { line: c.line, end, blob: null };
    if (!at || JSON.stringify(linesOf(body, at.line, at.end)) !== JSON.stringify(c.lines)) next.set(c.id, { state: 'outdated' });
    else if (at.line !== c.line || (at.blob && at.blob !== c.blob)) next.set(c.id, { line: at.line, end_line: c.end_line ? at.end : null, blob: at.blob });
  }
  if (!next.size) return [];
  // Decided again under the lock: a comment the person resolved (or deleted) since the read keeps that.
  const changed: string[] = [];
  await store.reviews.modify(changes.agent, (list) =>
    list.map((c) => {
      const n = next.get(c.id);
      if (!n || (c.state !== 'pending' && c.state !== 'sent')) return c;
      changed.push(c.id);
      return { ...c, ...n };
    }),
  );
  return changed;
}
