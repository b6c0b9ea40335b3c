import path from 'node:path';
import type { Command } from 'commander';
import { isAgentName, type Task } from '../../core/store/index.js';
import { checkCommitted } from '../../core/teams/done-check.js';
import { TaskStatusSchema } from '../../contract/store-schemas.js';
import { CliError } from '../errors.js';
import { action, assertActingAsSelf, openStore, parseIdList, print, table, withCommon, type CommonOpts } from './common.js';

function line(t: Task): string {
  const who = t.owner ? ` @${t.owner}` : t.reserved_for ? ` (for ${t.reserved_for})` : '';
  const deps = t.blocked_by.length ? ` blocked_by:${t.blocked_by.join(',')}` : '';
  const n = note(t);
  return `#${t.id} [${t.status}]${who} ${t.subject}${deps}${n ? ` — ${n}` : ''}`;
}

/** What a person needs beside the status: landed where, the commit it completed at, or why it is not done. */
function note(t: Task): string {
  if (t.landed) return `landed on ${t.landed.into} (${t.landed.commit.slice(0, 12)})`;
  if (t.status === 'completed' && t.commit) return `commit ${t.commit.slice(0, 12)}`;
  if (t.status !== 'completed' && t.not_done) return `not done: ${t.not_done}`;
  return '';
}

export function registerTaskCommands(team: Command): void {
  withCommon(team.command('tasks'))
    .description('list tasks')
    .option('--status <status>', 'pending | in_progress | completed')
    .action(
      action(async (opts: CommonOpts & { status?: string }) => {
        const status = opts.status === undefined ? undefined : TaskStatusSchema.safeParse(opts.status);
        if (status && !status.success) throw new CliError(`invalid --status "${opts.status}": use pending, in_progress or completed`);
        const tasks = await openStore(opts).tasks.list({ status: status?.data });
        print(opts, tasks, () => {
          if (!tasks.length) return '(no tasks)';
          const rows = [['ID', 'STATUS', 'OWNER', 'RESERVED', 'BLOCKED BY', 'SUBJECT', 'NOTE']];
          for (const t of tasks) rows.push([t.id, t.status, t.owner ?? '-', t.reserved_for ?? '-', t.blocked_by.join(',') || '-', t.subject, note(t) || '-']);
          return table(rows);
        });
      }),
    );

  const task = team.command('task').description('create, show, claim and complete tasks');
  withCommon(task.command('add'))
    .description('create a task')
    .requiredOption('--subject <text>', 'one-line title')
    .option('--description <text>', 'what to do', '')
    .option('--owner <name>', 'reserve the task for this member')
    .option('--blocked-by <ids>', 'comma-separated ids of tasks that must complete first')
    .action(
      action(async (opts: CommonOpts & { subject: string; description: string; owner?: string; blockedBy?: string }) => {
        const t = await openStore(opts).tasks.create({ subject: opts.subject, description: opts.description, reservedFor: opts.owner, blockedBy: parseIdList(opts.blockedBy) });
        print(opts, t, () => `created ${line(t)}`);
      }),
    );
  withCommon(task.command('show <id>'))
    .description('show one task')
    .action(
      action(async (id: string, opts: CommonOpts) => {
        const t = await openStore(opts).tasks.get(id);
        print(opts, t, () => `${line(t)}\n${t.description}${t.result ? `\nresult: ${t.result}` : ''}`);
      }),
    );
  withCommon(task.command('claim <id>'))
    .description('claim a pending task whose blockers are completed')
    .requiredOption('--as <name>', 'the claiming member')
    .action(
      action(async (id: string, opts: CommonOpts & { as: string }) => {
        assertActingAsSelf(opts.as);
        const t = await openStore(opts).tasks.claim(id, opts.as);
        print(opts, t, () => `claimed ${line(t)}`);
      }),
    );
  withCommon(task.command('complete <id>'))
    .description('complete a task you own')
    .requiredOption('--as <name>', 'the owner')
    .option('--summary <text>', 'what was done')
    .action(
      action(async (id: string, opts: CommonOpts & { as: string; summary?: string }) => {
        assertActingAsSelf(opts.as);
        const store = openStore(opts);
        // The same rule as TeamTaskComplete: a worktree teammate's task completes only with its work committed.
        const done = isAgentName(opts.as) ? await checkCommitted(path.join(path.resolve(opts.dir ?? process.cwd()), '.worktrees', opts.as)) : ({ ok: true, commit: null } as const);
        if (!done.ok) throw new CliError(`task ${id} not completed: ${done.reason}`, 1);
        const t = await store.tasks.complete(id, opts.as, opts.summary, done.commit ?? undefined);
        print(opts, t, () => `completed ${line(t)}`);
      }),
    );
}
