import { z } from 'zod';
import { LEAD, type Task } from '../../store/index.js';
import { checkCommitted } from '../done-check.js';
import { sessionHooks } from '../hooks.js';
import { sendFrame } from '../protocol.js';
import { tellOwnerCancelled } from '../task-cancel.js';
import type { TeamSession } from '../session.js';
import { teamTool } from './common.js';

const STATUS_LABEL = { pending: 'Pending', in_progress: 'InProgress', completed: 'Completed' } as const;

export function taskLine(t: Task): string {
  const extra = [
    t.reserved_for ? `reserved: ${t.reserved_for}` : '',
    t.blocked_by.length ? `blocked by: ${t.blocked_by.join(', ')}` : '',
    t.parked ? `parked: ${String(t.parked)}` : '',
  ].filter(Boolean);
  return `[${t.id}] ${STATUS_LABEL[t.status]} — ${t.subject} (owner: ${t.owner ?? '-'}${extra.length ? `; ${extra.join('; ')}` : ''})`;
}

const taskId = z.union([z.string(), z.number()]).transform((v) => String(v));

export function taskTools(session: TeamSession, role: 'lead' | 'teammate') {
  const create = teamTool(
    {
      name: 'TeamTaskCreate',
      description: 'Add a task to the team queue. Set owner to reserve it for one teammate; blocked_by lists task ids that must complete first.',
      leadOnly: role === 'lead',
      inputSchema: z
        .object({
          subject: z.string().min(1),
          description: z.string(),
          owner: z.string().optional(),
          blocked_by: z.array(taskId).optional(),
        })
        .strict(),
      async run(input, s) {
        const owner = input.owner?.trim() || null;
        const hook = await sessionHooks(s)('TaskCreated', { agent: s.me, task: { subject: input.subject, description: input.description, owner, blocked_by: input.blocked_by ?? [] } });
        if (hook.blocked) return { content: `task not created: ${hook.blocked}`, isError: true };
        const t = await s.store.tasks.create({ subject: input.subject, description: input.description, reservedFor: owner, blockedBy: input.blocked_by ?? [] });
        return `Task #${t.id} created: ${t.subject}${owner ? ` (reserved for ${owner})` : ''}`;
      },
    },
    session,
  );
  const list = teamTool(
    {
      name: 'TeamTaskList',
      description: 'List the team tasks, optionally by status.',
      inputSchema: z.object({ status: z.enum(['pending', 'in_progress', 'completed']).optional() }).strict(),
      async run(input, s) {
        const tasks = await s.team.tasks.list(input.status ? { status: input.status } : undefined);
        tasks.sort((a, b) => Number(a.id) - Number(b.id));
        return tasks.length ? tasks.map(taskLine).join('\n') : 'No tasks.';
      },
    },
    session,
  );
  const claim = teamTool(
    {
      name: 'TeamTaskClaim',
      description: 'Claim a pending task (the team loop claims your next task automatically when you are idle).',
      inputSchema: z.object({ task_id: taskId }).strict(),
      async run(input, s) {
        const t = await s.team.tasks.claim(input.task_id, s.me);
        return `Claimed task #${t.id}: ${t.subject}\n\n${t.description}`;
      },
    },
    session,
  );
  const complete = teamTool(
    {
      name: 'TeamTaskComplete',
      description: 'Mark a task you own as completed, with a one-line summary of what you did. The lead is notified. In a worktree, commit your changes first: a task with uncommitted work is not completed.',
      inputSchema: z.object({ task_id: taskId, summary: z.string().max(2000).optional() }).strict(),
      async run(input, s) {
        const current = await s.team.tasks.get(input.task_id);
        const done = await checkCommitted(s.worktreePath(s.me));
        if (!done.ok) {
          // Only the owner's refusal is recorded (the board shows it); anyone else gets the store's own error below.
          if (current.owner === s.me && current.status === 'in_progress') await s.team.tasks.update(current.id, { extra: { not_done: done.reason, not_done_by: s.me } });
          return { content: `task #${current.id} not completed: ${done.reason}`, isError: true };
        }
        const hook = await sessionHooks(s)('TaskCompleted', { agent: s.me, task_id: current.id, summary: input.summary ?? null, task: current });
        if (hook.blocked) return { content: `task #${current.id} not completed: ${hook.blocked}`, isError: true };
        const t = await s.team.tasks.complete(input.task_id, s.me, input.summary, done.commit ?? undefined);
        await sendFrame(s.team, s.me, LEAD, 'idle_notification', {
          idle_reason: 'available',
          completed_task_id: t.id,
          completed_status: 'completed',
          summary: input.summary ?? null,
        });
        return `Task #${t.id} completed${done.commit ? ` at ${done.commit.slice(0, 12)}` : ''}.`;
      },
    },
    session,
  );
  const update = teamTool(
    {
      name: 'TeamTaskUpdate',
      leadOnly: true,
      description:
        'Correct a task (lead only): edit subject/description, reassign (owner: a teammate; an in-progress task goes back to pending for them), change blocked_by, or cancel it with a reason (a cancelled task does not unblock its dependents).',
      inputSchema: z
        .object({
          task_id: taskId,
          subject: z.string().optional(),
          description: z.string().optional(),
          owner: z.string().nullable().optional(),
          blocked_by: z.array(taskId).optional(),
          cancel: z.boolean().optional(),
          reason: z.string().max(2000).optional(),
        })
        .strict(),
      async run(input, s) {
        // The task as it was under the update's own lock: a claim racing a cancel still has its owner told.
        const { old: before, task: t } = await s.store.tasks.change(input.task_id, {
          ...(input.subject !== undefined ? { subject: input.subject } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.owner !== undefined ? { reservedFor: input.owner?.trim() || null } : {}),
          ...(input.blocked_by ? { blockedBy: input.blocked_by } : {}),
          ...(input.cancel ? { cancel: true } : {}),
          ...(input.reason ? { reason: input.reason } : {}),
        });
        // A reassigned task: its new owner hears of it at once, as a typed frame rather than prose.
        const owner = t.reserved_for ?? null;
        if (owner && owner !== before.reserved_for && owner !== s.me && t.status !== 'completed') {
          await sendFrame(s.store, s.me, owner, 'task_assignment', { task_id: t.id, subject: t.subject, previous_owner: before.reserved_for ?? null });
        }
        // Its owner stops working on it at once (its turn on the task ends) and hears why.
        if (input.cancel) await tellOwnerCancelled(s.store, s.me, before, input.reason ?? null);
        // Dependents of a cancelled task stay blocked; say so, so the lead re-plans them.
        const stuck = input.cancel && t.blocks.length ? `\nStill blocked by this cancelled task (change their blocked_by or cancel them): ${t.blocks.map((b) => `#${b}`).join(', ')}` : '';
        return `Task updated: ${taskLine(t)}${stuck}`;
      },
    },
    session,
  );
  return role === 'lead' ? [create, list, update] : [create, list, claim, complete];
}
