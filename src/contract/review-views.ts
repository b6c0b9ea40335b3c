/**
 * The review and merge part of the API contract (the Changes view, conflict warnings, the merge panel);
 * re-exported by api.ts, which its requests and events use.
 */
import { z } from 'zod';
import { AgentStateSchema } from './agent-states.js';
import { agentName, taskId, text } from './fields.js';

export const relPath = z.string().min(1).max(4096);
export const ChangeSourceSchema = z.enum(['committed', 'staged', 'unstaged', 'untracked']);
export const FileChangeSchema = z.object({
  path: relPath,
  old_path: relPath.nullable(),
  status: z.enum(['added', 'modified', 'deleted', 'renamed', 'copied', 'type_changed']),
  source: ChangeSourceSchema,
  binary: z.boolean(),
  huge: z.boolean(),
  size: z.number().int().nonnegative().nullable(),
  added: z.number().int().nonnegative().nullable(),
  deleted: z.number().int().nonnegative().nullable(),
  sig: z.string().max(200),
});
export type FileChangeView = z.infer<typeof FileChangeSchema>;
const commitView = z.object({ sha: z.string().max(64), subject: text(2000), at: z.number() });
export const ChangesViewSchema = z.object({
  agent: agentName,
  branch: text(300),
  into: text(300),
  base: z.string().max(64).nullable(),
  head: z.string().max(64).nullable(),
  ahead: z.number().int().nonnegative(),
  behind: z.number().int().nonnegative(),
  last_commit: commitView.nullable(),
  files: z.array(FileChangeSchema).max(20_000),
});
export type ChangesView = z.infer<typeof ChangesViewSchema>;
export const ReviewCommentViewSchema = z.object({
  id: z.string().max(64),
  path: relPath,
  line: z.number().int().positive(),
  end_line: z.number().int().positive().nullish(),
  lines: z.array(z.string().max(2000)).max(200),
  text: text(20_000),
  state: z.enum(['pending', 'sent', 'outdated', 'resolved']),
  created_at: z.number(),
  /** When it reached the teammate (an outdated comment with none has not yet: "Send review" sends it). */
  sent_at: z.number().nullish(),
  /** Its file left the teammate's changes. */
  gone: z.boolean().nullish(),
});
export type ReviewCommentView = z.infer<typeof ReviewCommentViewSchema>;
const lineRange = z.object({ start: z.number().int(), end: z.number().int() });
export const ConflictWarningSchema = z.object({
  id: text(10_000),
  kind: z.enum(['overlap', 'conflict']),
  agents: z.tuple([agentName, agentName]),
  files: z.array(z.object({ path: relPath, conflict: z.boolean(), lines: z.array(lineRange).max(500) })).max(2000),
});
export type ConflictWarningView = z.infer<typeof ConflictWarningSchema>;
export const BranchOverviewSchema = z.object({
  agent: agentName,
  branch: text(300),
  ahead: z.number().int().nonnegative(),
  behind: z.number().int().nonnegative(),
  last_commit: commitView.nullable(),
  completed_tasks: z.array(z.object({ id: taskId, subject: text(2000) })),
  open_comments: z.number().int().nonnegative(),
  uncommitted: z.array(relPath),
  state: AgentStateSchema,
  /** Its last landing, while it has nothing new ahead (the panel says "landed", not "0 / n"). */
  landed: z.object({ into: text(300), at: z.number(), commit: z.string().max(64) }).nullable().optional(),
});
export type BranchOverviewView = z.infer<typeof BranchOverviewSchema>;

