/**
 * `agents/<name>/review.json`: the person's review comments on a teammate's changes, with their state
 * (`pending` until sent, `sent`, `outdated` once the lines they are about changed, `resolved` by the person).
 * Locked read-modify-write and atomic like every team file; a corrupt file is quarantined, never overwritten.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ensureDir, parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import type { Journal } from './journal.js';
import { withLock } from './lock.js';
import type { TeamPaths } from './paths.js';
import { describeIssues } from '../../contract/store-schemas.js';
import { TeamError } from './errors.js';

export const REVIEW_STATES = ['pending', 'sent', 'outdated', 'resolved'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const ReviewCommentSchema = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  path: z.string().min(1).max(4096),
  /** 1-based line of the new side (the teammate's version); `end_line` when a range was selected. */
  line: z.number().int().positive(),
  end_line: z.number().int().positive().nullish(),
  /** The lines the comment is about, as they were when it was written (outdated when they differ). */
  lines: z.array(z.string().max(2000)).max(200),
  text: z.string().min(1).max(20_000),
  state: z.enum(REVIEW_STATES),
  created_at: z.number().int().nonnegative(),
  sent_at: z.number().int().nonnegative().nullish(),
  resolved_at: z.number().int().nonnegative().nullish(),
  /** The git blob of the file the comment's line numbers are about (written when it was, moved along since). */
  blob: z.string().regex(/^[0-9a-f]{40,64}$/).nullish(),
  /** Outdated because its file left the teammate's changes (deleted, or the change reverted). */
  gone: z.boolean().nullish(),
});
export type ReviewComment = z.infer<typeof ReviewCommentSchema>;

const ReviewFileSchema = z.looseObject({ comments: z.array(ReviewCommentSchema).max(2000) });

export interface NewComment {
  path: string;
  line: number;
  end_line?: number | null;
  lines: string[];
  text: string;
  blob?: string | null;
}

export class Reviews {
  constructor(
    private readonly paths: TeamPaths,
    private readonly journal: Journal,
  ) {}

  file(agent: string): string {
    return `${this.paths.agentDir(agent)}/review.json`;
  }

  /** The agent's comments, oldest first; a corrupt file is quarantined and reads as none. */
  async list(agent: string): Promise<ReviewComment[]> {
    const file = this.file(agent);
    const r = this.parse(file);
    if (r.kind === 'ok') return r.comments;
    if (r.kind === 'corrupt') await this.journal.quarantineIfStillBad(file, () => { const again = this.parse(file); return again.kind === 'corrupt' ? again.reason : null; });
    return [];
  }

  async add(agent: string, c: NewComment): Promise<ReviewComment> {
    const comment = ReviewCommentSchema.safeParse({ ...c, id: randomUUID().slice(0, 12), state: 'pending', created_at: Date.now(), sent_at: null, resolved_at: null });
    if (!comment.success) throw new TeamError('invalid', `invalid review comment: ${describeIssues(comment.error)}`);
    await this.modify(agent, (list) => [...list, comment.data]);
    return comment.data;
  }

  /** Applies `fn` to the list under the file's lock; returns the new list. */
  async modify(agent: string, fn: (list: ReviewComment[]) => ReviewComment[]): Promise<ReviewComment[]> {
    const file = this.file(agent);
    ensureDir(this.paths.agentDir(agent));
    return withLock(file, (guard) => {
      const r = this.parse(file);
      if (r.kind === 'corrupt') {
        this.journal.quarantine(file, r.reason);
      }
      const next = fn(r.kind === 'ok' ? r.comments : []);
      const res = ReviewFileSchema.safeParse({ comments: next });
      if (!res.success) throw new TeamError('invalid', `invalid review comments: ${describeIssues(res.error)}`);
      writeFileAtomic(file, JSON.stringify(res.data, null, 2), { guard });
      return res.data.comments;
    });
  }

  async setState(agent: string, ids: string[], state: ReviewState): Promise<ReviewComment[]> {
    const now = Date.now();
    return this.modify(agent, (list) =>
      list.map((c) => (ids.includes(c.id) ? { ...c, state, ...(state === 'sent' ? { sent_at: now } : {}), ...(state === 'resolved' ? { resolved_at: now } : {}) } : c)),
    );
  }

  async remove(agent: string, id: string): Promise<void> {
    await this.modify(agent, (list) => list.filter((c) => c.id !== id));
  }

  private parse(file: string): { kind: 'ok'; comments: ReviewComment[] } | { kind: 'missing' } | { kind: 'corrupt'; reason: string } {
    const r = readTextFile(file);
    if (r.kind === 'missing') return r;
    if (r.kind === 'unreadable') return { kind: 'corrupt', reason: r.reason };
    const json = parseJson(r.text);
    if (!json.ok) return { kind: 'corrupt', reason: json.reason };
    const res = ReviewFileSchema.safeParse(json.value);
    if (!res.success) return { kind: 'corrupt', reason: describeIssues(res.error) };
    return { kind: 'ok', comments: res.data.comments };
  }
}
