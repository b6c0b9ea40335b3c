import { z } from 'zod';
import { ModelNameSchema } from '../../../contract/model-name.js';
import { assertMemberName, LEAD, TeamError } from '../../store/index.js';
import { teamStatusText } from '../status-view.js';
import { spawnTeammate } from '../spawn.js';
import type { TeamSession } from '../session.js';
import { resetTeam } from '../reset.js';
import { teamTool } from './common.js';
import { TEAMMATE_MODES } from '../../../contract/settings-schema.js';

const MemberInput = z
  .object({
    name: z.string(),
    role: z.string().optional(),
    prompt: z.string().optional(),
    instructions: z.string().optional().describe('alias of prompt'),
    model: ModelNameSchema.optional(),
    isolation: z.enum(['worktree', 'none']).optional().describe('worktree: the teammate works in .worktrees/<name> on branch team/<name>'),
  })
  .strict();

export const LEAD_RULES = [
  'IMPORTANT: You are now the team LEAD. COORDINATE, do not implement:',
  '- Do not build with Bash/Write/Edit (the lead guard refuses authoring); use TeamTaskCreate (always set owner) and SendMessage.',
  '- Review with Read/Glob/Grep and git log/diff/show; integrate with TeamMerge (dry_run first).',
  '- Teammate messages and task completions reach you automatically: wait for them instead of polling.',
  '- A stuck task comes back to you parked; fix it with TeamTaskUpdate (reassign, edit, cancel, change blockers).',
].join('\n');

export function teamTools(session: TeamSession) {
  const create = teamTool(
    {
      name: 'TeamCreate',
      description: 'Create the team and become its lead. Each agent has a name, role, prompt (its standing instructions), optional model and isolation.',
      needsPermission: true,
      inputSchema: z
        .object({
          name: z.string().min(1).max(100),
          description: z.string().optional(),
          agents: z.array(MemberInput).max(32),
          replace: z.boolean().optional().describe('replace an existing team (its state is moved aside, never deleted)'),
        })
        .strict(),
      async run(input, s) {
        // Every member is validated before anything is written.
        const seen = new Set<string>();
        const members = input.agents.map((a) => {
          const name = assertMemberName(a.name);
          if (seen.has(name)) throw new TeamError('invalid', `duplicate member name "${name}"`);
          seen.add(name);
          return { name, role: a.role ?? '', prompt: a.prompt ?? a.instructions ?? '', model: a.model ?? null, isolation: a.isolation ?? null, is_active: false };
        });
        const existing = await s.store.config.load();
        if (existing && !input.replace) throw new TeamError('conflict', `a team "${existing.name}" already exists; pass replace: true to replace it`);
        // The lead's lease before any side effect: while another lead lives, nothing of its team is moved.
        const heldBefore = !!s.lease;
        await s.holdLease(LEAD);
        try {
          if (existing) await resetTeam(s);
          s.store.init();
          await s.store.config.create({ name: input.name, description: input.description ?? null, members });
        } catch (e) {
          // Refused (live members, say): a session that was not the lead does not stay holding its lease.
          if (!heldBefore) await s.releaseLease();
          throw e;
        }
        await s.becomeLead();
        const wt = members.filter((m) => m.isolation === 'worktree').map((m) => m.name);
        return [
          `Team '${input.name}' created with agents: ${members.map((m) => m.name).join(', ') || '(none)'}.`,
          'Start them with SpawnTeammate; give them work with TeamTaskCreate.',
          ...(wt.length ? [`Worktree members (${wt.join(', ')}): SpawnTeammate creates .worktrees/<name> on branch team/<name> — do NOT run git worktree add yourself.`] : []),
          '',
          LEAD_RULES,
        ].join('\n');
      },
    },
    session,
  );
  const spawn = teamTool(
    {
      name: 'SpawnTeammate',
      description:
        'Start a teammate process (a team member by name). prompt is appended to its stored prompt; model overrides its model; teammateMode auto|tmux|background|host; plan_mode_required: the teammate may only read until its plan (SubmitPlan) is approved — use it when asked for plan approval.',
      needsPermission: true,
      leadOnly: true,
      inputSchema: z
        .object({
          name: z.string(),
          prompt: z.string().optional(),
          cwd: z.string().optional(),
          model: ModelNameSchema.optional(),
          teammateMode: z.enum(TEAMMATE_MODES).optional(),
          plan_mode_required: z.boolean().optional(),
          host: z.string().max(40).optional().describe('a host of the user settings "hosts" to run it on ("local": this machine); default: its last host, else the placement rule'),
        })
        .strict(),
      async run(input, s) {
        const o = await spawnTeammate(s, {
          ...(input.host !== undefined ? { host: input.host } : {}),
          name: input.name,
          ...(input.prompt !== undefined ? { prompt: input.prompt } : {}),
          ...(input.cwd !== undefined ? { cwd: input.cwd } : {}),
          ...(input.model !== undefined ? { model: input.model } : {}),
          ...(input.teammateMode !== undefined ? { teammateMode: input.teammateMode } : {}),
          // The person's request asked for plans first: the runtime sets plan mode whatever the model passed.
          ...(input.plan_mode_required || s.planRequest ? { planModeRequired: true } : {}),
          ...(s.planRequest ? { planModeReason: `the person's request said "${s.planRequest.phrase}"` } : {}),
        });
        const where = o.mode === 'tmux' ? `in ${o.where}` : o.where;
        const plan = s.planRequest
          ? ` It starts in plan mode because the person's request said "${s.planRequest.phrase}": it may only read until its plan (SubmitPlan) is approved.`
          : input.plan_mode_required
            ? ' It starts in plan mode: it may only read until its plan (SubmitPlan) is approved.'
            : '';
        return `Teammate '${o.agent}' spawned ${where} and is live (pid ${o.pid ?? '?'}, ${o.model ? `model ${o.model}, ` : ''}${o.worktree ? `worktree ${o.cwd}` : `cwd ${o.cwd}`}, boot ${o.bootMs} ms).${plan}`;
      },
    },
    session,
  );
  const status = teamTool(
    {
      name: 'TeamStatus',
      description: 'The team roster (state, current task, model, queued messages) and the task board.',
      inputSchema: z.object({}).strict(),
      async run(_input, s) {
        return teamStatusText(s.store);
      },
    },
    session,
  );
  return { create, spawn, status, lead: LEAD };
}
