/**
 * The review and merge requests of a view, run on the host: a file's patch, comments and their state,
 * "Send review", the merge overview, the dry run and the merge itself (checks output broadcast as it comes).
 */
import { randomUUID } from 'node:crypto';
import { loadSettings } from '../../core/agent/settings.js';
import { TeamError, type TeamStore } from '../../core/store/index.js';
import { filePatch } from '../../core/review/changes.js';
import { checksSandbox } from '../../core/review/checks-sandbox.js';
import { integrateAndLand } from '../../core/review/integrate.js';
import { abortMerge, conflictSides, leaveConflicted } from '../../core/review/leave-conflicted.js';
import { mergeOverview, mergeRefusals, predictMerges } from '../../core/review/merge-plan.js';
import { assertMember, requestChanges, resolveComment, sendReview } from '../../core/review/review.js';
import type { Request } from '../../contract/api.js';
import type { ReviewFeed } from './review-feed.js';

export type ReviewRequest = Extract<Request, { type: `review_${string}` | `merge_${string}` }>;

export function isReviewRequest(req: Request): req is ReviewRequest {
  return req.type.startsWith('review_') || req.type.startsWith('merge_');
}

/** Largest patch sent to a page; past it the file shows as too large to display. */
const MAX_PATCH_BYTES = 8 * 1024 * 1024;

export async function runReviewRequest(store: TeamStore, feed: ReviewFeed, req: ReviewRequest): Promise<unknown> {
  const root = feed.root;
  const broadcast = feed.broadcast;
  switch (req.type) {
    case 'review_file': {
      const ch = await feed.changesOf(req.agent);
      const file = ch.files.find((f) => f.path === req.path && f.source === req.source);
      if (!file) throw new TeamError('invalid', `${JSON.stringify(req.path)} (${req.source}) is not in ${req.agent}'s changes`);
      return { patch: await filePatch(root, ch, file, MAX_PATCH_BYTES), file };
    }
    case 'review_comment': {
      await assertMember(store, req.agent);
      const resolved = await resolveComment(root, await feed.changesOf(req.agent), req);
      return store.reviews.add(req.agent, resolved);
    }
    case 'review_comment_state':
      if (req.state === 'deleted') await store.reviews.remove(req.agent, req.comment_id);
      else await store.reviews.setState(req.agent, [req.comment_id], req.state);
      return undefined;
    case 'review_send': {
      if (!req.request_changes) return { sent: (await sendReview(store, req.agent)).sent.length, reopened: null };
      const r = await requestChanges(store, req.agent);
      return { sent: r.sent.length, reopened: r.reopened };
    }
    case 'merge_overview':
      return mergeOverview(store, root);
    case 'merge_dry_run': {
      const p = await predictMerges(root, req.agents);
      return { ...p, ...(await mergeRefusals(store, root, req.agents)) };
    }
    case 'merge_run': {
      const run = randomUUID().slice(0, 8);
      const checks = req.checks ? loadSettings(root).settings.checks : [];
      const out = (data: string) => broadcast({ type: 'merge_output', run, data });
      let told = false;
      const result = await integrateAndLand(store, root, {
        agents: req.agents,
        checks,
        allowLive: req.allow_live,
        allowUncommitted: req.allow_uncommitted,
        allowOpenComments: req.allow_open_comments,
        onOutput: out,
        wrap: async (command, dir) => {
          const sb = await checksSandbox(root, dir);
          if (!told) out(`${sb.text}\n`);
          told = true;
          return sb.wrap ? sb.wrap(command, dir) : command;
        },
      });
      broadcast({ type: 'merge_done', run, result });
      feed.touch();
      return { run, ...result };
    }
    case 'merge_leave_conflicted': {
      await assertMember(store, req.agent);
      const left = await leaveConflicted(root, req.agent);
      feed.touch();
      return left;
    }
    case 'merge_conflicts':
      return conflictSides(root);
    case 'merge_abort': {
      const r = await abortMerge(root, { confirm: req.confirm });
      feed.touch();
      return r;
    }
  }
}
