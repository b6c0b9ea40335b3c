import type { Command } from 'commander';
import path from 'node:path';
import { isLive, type MemberView } from '../../core/store/index.js';
import { TeamCosts, type MemberCosts } from '../../core/teams/member-costs.js';
import { diskUsage } from '../../core/teams/resources.js';
import { action, age, openStore, parseIdList, print, table, withCommon, type CommonOpts } from './common.js';

/** CPU % is over an interval: two readings this far apart. */
const CPU_WINDOW_MS = 500;

/** Each member's resources and behind count (disk measured once per run: du walks every file). */
async function costsOf(opts: CommonOpts, members: MemberView[]): Promise<Map<string, MemberCosts>> {
  const disks = new Map<string, Promise<number | null>>();
  const costs = new TeamCosts(openStore(opts), path.resolve(opts.dir ?? process.cwd()), (dir) => disks.get(dir) ?? disks.set(dir, diskUsage(dir)).get(dir)!);
  const names = members.map((m) => m.name);
  const first = await costs.sample(names);
  // Nothing runs: no CPU to measure, no reason to wait.
  if (!members.some((m) => m.pid && isLive(m.state))) return first;
  await new Promise((r) => setTimeout(r, CPU_WINDOW_MS));
  return costs.sample(names);
}

function mib(bytes: number | null): string {
  return bytes === null ? '-' : `${Math.round(bytes / 1048576)}M`;
}

/** One count per state, in a fixed order; an agent waiting for the person's answer is counted apart, not as working. */
function agentCounts(members: MemberView[]): string {
  const counts = new Map<string, number>();
  for (const m of members) {
    const k = m.waiting_for && (m.state === 'working' || m.state === 'idle') ? 'waiting for you' : m.state === 'defined' ? 'not started' : m.state;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const order = ['working', 'waiting for you', 'idle', 'spawning', 'error', 'stopped', 'dead', 'not started'];
  return [...counts].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).map(([k, n]) => `${n} ${k}`).join(', ');
}

/** The STATE cell: the state, and what it waits on or why it fails. */
function stateText(m: MemberView): string {
  if (m.state === 'error') return `error: ${m.error}`;
  if (m.waiting_for) return `${m.state}, waiting for approval ${m.waiting_for}`;
  if (m.budget_reached) return `${m.state}, budget reached`;
  return m.retry ? `${m.state}, ${m.retry}` : m.state;
}

export function registerTeamLifecycle(team: Command): void {
  withCommon(team.command('create <name>'))
    .description('create a team in the workspace')
    .option('--description <text>', 'what the team is for')
    .option('--members <names>', 'comma-separated teammate names')
    .action(
      action(async (name: string, opts: CommonOpts & { description?: string; members?: string }) => {
        const store = openStore(opts);
        store.init();
        const cfg = await store.config.create({ name, description: opts.description, members: parseIdList(opts.members).map((n) => ({ name: n })) });
        print(opts, cfg, () => `created team "${cfg.name}" with ${cfg.members.length} member(s) in ${store.dir}`);
      }),
    );

  withCommon(team.command('status'))
    .description('members with their state (incl. dead), current task, tokens and cost, heartbeat age, CPU/memory/disk, commits behind the lead; task counts')
    .action(
      action(async (opts: CommonOpts) => {
        const status = await openStore(opts).status();
        const costs = await costsOf(opts, status.members);
        const view = { ...status, members: status.members.map((m) => ({ ...m, ...costs.get(m.name)! })) };
        print(opts, view, () => {
          const rows = [['MEMBER', 'ROLE', 'STATE', 'TASK', 'QUEUED', 'MODEL', 'TOKENS', 'COST', 'HEARTBEAT', 'PID', 'CPU', 'MEM', 'DISK', 'BEHIND']];
          for (const m of view.members) {
            const r = m.resources;
            // Cost `?`: some call's model has no known price (never shown as a too-low number).
            const tokens = m.tokens === null ? '-' : m.tokens.toLocaleString('en-US');
            const cost = m.tokens === null ? '-' : m.cost_usd === null ? '?' : `$${m.cost_usd.toFixed(4)}`;
            rows.push([m.name, m.role || '-', stateText(m), m.current_task ?? '-', String(m.queued), m.model ?? '-', tokens, cost, age(m.heartbeat_age_ms), m.pid ? String(m.pid) : '-', r.cpu_percent === null ? '-' : `${r.cpu_percent}%`, mib(r.rss_bytes), mib(r.disk_bytes), m.behind === null ? '-' : String(m.behind)]);
          }
          const t = view.tasks;
          return `team ${view.team}\n${table(rows)}\nagents: ${agentCounts(view.members)}\ntasks: ${t.pending} pending, ${t.in_progress} in progress, ${t.completed} completed`;
        });
      }),
    );

  withCommon(team.command('watch'))
    .description('print change events as JSON lines until interrupted')
    .action(
      action(async (opts: CommonOpts) => {
        const watcher = openStore(opts).watch();
        watcher.onChange((e) => process.stdout.write(`${JSON.stringify({ ts: Date.now(), ...e })}\n`));
        process.stderr.write('watching (Ctrl-C to stop)\n');
        await new Promise<void>((resolve) => {
          const keepAlive = setInterval(() => {}, 1 << 30);
          const stop = () => {
            clearInterval(keepAlive);
            watcher.close();
            resolve();
          };
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
      }),
    );
}
