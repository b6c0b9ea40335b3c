/**
 * `thclaws claude-team`: Claude Code's own agent teams (its files under ~/.claude), read and steered from
 * thclaws — the roster, tasks and log read from Claude Code's files, a message appended to an inbox as
 * `dashboard`, and its permission requests answered through a hook thclaws installs on request.
 */
import type { Command } from 'commander';
import { answerApproval, awaitDecision, hookInputSchema, hookOutput, pendingApprovals } from '../core/claude-code/approvals.js';
import { installHook, uninstallHook } from '../core/claude-code/hook-settings.js';
import { sendToMember } from '../core/claude-code/inbox.js';
import { teamLog } from '../core/claude-code/log.js';
import { findTeam, listTeams, type TeamView } from '../core/claude-code/teams.js';
import { CliError } from './errors.js';

/** How long the hook waits for a person before Claude Code's own dialog takes over. */
const DEFAULT_WAIT_SECONDS = 300;

const out = (s: string): void => void process.stdout.write(`${s}\n`);

function fail<A extends unknown[]>(fn: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(err instanceof Error ? err.message : String(err), 1);
    }
  };
}

function teamLines(t: TeamView): string {
  const head = `${t.name}  ${t.ended ? 'ended' : 'live'}${t.version ? `  (Claude Code ${t.version})` : ''}${t.cwd ? `  ${t.cwd}` : ''}  ${t.tasks.length} task(s)`;
  const members = t.members.map((m) => `  ${m.name.padEnd(16)} ${m.state}${m.waitingFor ? ` (waiting for ${m.waitingFor})` : ''}${m.backend ? `  ${m.backend}` : ''}${m.agentType && m.agentType !== m.name ? `  ${m.agentType}` : ''}`);
  return [head, ...members].join('\n');
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The command line that runs this same thclaws (no PATH lookup inside Claude Code's hook shell). */
function selfCommand(): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return `${q(process.execPath)} ${q(process.argv[1] ?? 'thclaws')}`;
}

export function registerClaudeTeamCommand(program: Command): void {
  const cc = program.command('claude-team').description("Claude Code's own agent teams (~/.claude/teams): list, tasks, send, log, approvals");

  cc.command('list')
    .description('the teams with their members and states (ended teams with their tasks)')
    .option('--json', 'machine-readable output')
    .action(
      fail(async (opts: { json?: boolean }) => {
        const teams = await listTeams();
        out(opts.json ? JSON.stringify(teams) : teams.map(teamLines).join('\n') || '(no Claude Code teams)');
      }),
    );

  cc.command('tasks <team>')
    .description("a team's task list")
    .option('--json', 'machine-readable output')
    .action(
      fail(async (name: string, opts: { json?: boolean }) => {
        const team = await findTeam(name);
        if (opts.json) {
          out(JSON.stringify(team.tasks));
          return;
        }
        out(
          team.tasks.map((t) => `#${t.id}  ${t.status.padEnd(11)} ${t.subject}${t.owner ? `  @${t.owner}` : ''}${t.blockedBy?.length ? `  blocked by ${t.blockedBy.map((b) => `#${b}`).join(',')}` : ''}`).join('\n') ||
            '(no tasks)',
        );
      }),
    );

  cc.command('send <team> <member> <text>')
    .description("append a message to a member's inbox as `dashboard` (prose only)")
    .action(
      fail(async (team: string, member: string, text: string) => {
        await sendToMember(team, member, text);
        out(`sent to ${member} of ${team}`);
      }),
    );

  cc.command('log <team> [member]')
    .description("the team's messages, from Claude Code's transcripts")
    .option('--json', 'machine-readable output')
    .action(
      fail(async (name: string, member: string | undefined, opts: { json?: boolean }) => {
        const entries = await teamLog(await findTeam(name), member);
        out(opts.json ? JSON.stringify(entries) : entries.map((e) => `${e.at ?? ''}  ${e.member} ${e.direction === 'in' ? '<-' : '->'} ${e.text.replace(/\n/g, '\n    ')}`).join('\n') || '(no messages)');
      }),
    );

  const hooks = cc.command('hooks').description("thclaws' PermissionRequest hook in ~/.claude/settings.json");
  hooks
    .command('install')
    .description('add the hook (permission requests then wait for `approve`/`deny`, else fall back to Claude Code’s dialog)')
    .option('--wait <seconds>', 'how long a request waits for an answer before Claude Code asks in its own dialog', String(DEFAULT_WAIT_SECONDS))
    .action(
      fail(async (opts: { wait: string }) => {
        const wait = Number(opts.wait);
        if (!Number.isInteger(wait) || wait < 1) throw new CliError(`--wait must be a whole number of seconds, got "${opts.wait}"`);
        out(await installHook(`${selfCommand()} claude-team hook --wait ${wait}`, wait + 30));
      }),
    );
  hooks
    .command('uninstall')
    .description('remove the hook, restoring the settings file as it was')
    .action(fail(async () => out(await uninstallHook())));

  cc.command('hook', { hidden: true })
    .description('run by Claude Code as the PermissionRequest hook: reads its input on stdin')
    .option('--wait <seconds>', 'how long to wait for an answer', String(DEFAULT_WAIT_SECONDS))
    .action(
      fail(async (opts: { wait: string }) => {
        const raw = await readStdin();
        const parsed = hookInputSchema.safeParse(JSON.parse(raw || 'null'));
        // Not a permission request thclaws understands: say nothing, Claude Code asks as usual.
        if (!parsed.success || parsed.data.hook_event_name !== 'PermissionRequest') return;
        const answer = await awaitDecision(parsed.data, Number(opts.wait) * 1000);
        if (answer) out(hookOutput(answer));
      }),
    );

  cc.command('approvals')
    .description('permission requests waiting for an answer')
    .option('--json', 'machine-readable output')
    .action(
      fail(async (opts: { json?: boolean }) => {
        const pending = await pendingApprovals();
        out(opts.json ? JSON.stringify(pending) : pending.map((r) => `${r.id}  ${r.agent}  ${r.toolName}  ${JSON.stringify(r.toolInput).slice(0, 160)}`).join('\n') || '(no pending approvals)');
      }),
    );
  cc.command('approve <id>')
    .description('allow a pending permission request')
    .action(
      fail(async (id: string) => {
        const r = await answerApproval(id, { behavior: 'allow' });
        out(`allowed ${r.toolName} for ${r.agent}`);
      }),
    );
  cc.command('deny <id>')
    .description('deny a pending permission request')
    .option('--message <text>', 'the reason the model is told')
    .action(
      fail(async (id: string, opts: { message?: string }) => {
        const r = await answerApproval(id, { behavior: 'deny', ...(opts.message ? { message: opts.message } : {}) });
        out(`denied ${r.toolName} for ${r.agent}`);
      }),
    );
}
