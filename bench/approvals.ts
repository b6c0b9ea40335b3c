/**
 * Approvals through the real chain: a real teammate process (scripted provider, `ask` mode) asks before each
 * Bash call. Measured per request: request → visible to the lead side (the teammate's `waiting` written →
 * this process's change feed sees it in `pendingApprovals`), and answer → tool running (`answerApproval` →
 * the approved command's first instruction, timestamped by `date` in the command itself); then the same
 * through the dashboard in Chromium (`approvals-dashboard.ts`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trustFolder } from '../src/core/agent/trust.js';
import { answerApproval, pendingApprovals } from '../src/core/teams/approvals.js';
import { LeadHandler } from '../src/core/teams/lead-handler.js';
import { TeamSession } from '../src/core/teams/session.js';
import { shutdownTeam } from '../src/core/teams/shutdown.js';
import { spawnTeammate } from '../src/core/teams/spawn.js';
import { dashboardApprovalLeg } from './approvals-dashboard.js';
import { round, summarize } from './stats.js';
import type { BenchSection } from './types.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(REPO, 'bin/thclaws');
const N = Number(process.env.BENCH_APPROVALS) || 30;

export async function runApprovalsBench(): Promise<BenchSection> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'thclaws-bench-approvals-')));
  const dir = path.join(base, 'ws');
  const home = path.join(base, 'home');
  fs.mkdirSync(dir);
  fs.mkdirSync(home);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  fs.mkdirSync(path.join(dir, '.thclaws'));
  fs.writeFileSync(path.join(dir, '.thclaws/settings.json'), JSON.stringify({ teamEnabled: true, teammatePermissionMode: 'ask' }));
  trustFolder(dir, { HOME: home });
  const calls = Array.from({ length: N }, (_, i) => ({ name: 'Bash', input: { command: `date +%s%3N >> ran.txt; echo ${i}` } }));
  const script = { rules: [{ match: 'Task #1 —', turns: [{ text: 'go', tool_calls: [...calls, { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } }] }, { text: 'end' }] }], fallback: [{ text: 'ok' }] };
  const scriptFile = path.join(base, 'script.json');
  fs.writeFileSync(scriptFile, JSON.stringify(script));
  const session = new TeamSession({
    projectRoot: dir,
    teamDir: path.join(dir, '.thclaws/state/team'),
    cwd: dir,
    role: 'solo',
    teammateMode: 'background',
    selfArgv: [process.execPath, BIN],
    childFlags: ['--script', scriptFile],
    defaultModel: 'scripted',
    maxLiveTeammates: 8,
    childEnv: { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') },
  });
  session.store.init();
  await session.store.config.create({ name: 'bench', members: [{ name: 'a' }] });
  await session.becomeLead();
  const shown: number[] = [];
  const running: number[] = [];
  const ran = path.join(dir, 'ran.txt');
  const lines = () => (fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8').trim().split('\n').filter(Boolean) : []);
  const watcher = session.store.watch();
  let wake: (() => void) | undefined;
  watcher.onChange(() => wake?.());
  const until = async <T>(fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error('approvals bench: timed out');
      await new Promise<void>((r) => {
        const t = setTimeout(r, 5);
        wake = () => {
          clearTimeout(t);
          r();
        };
      });
    }
  };
  try {
    await session.store.tasks.create({ subject: 'Bench', description: 'x', reservedFor: 'a' });
    await spawnTeammate(session, { name: 'a' });
    const seen = new Set<string>();
    for (let i = 0; i < N; i++) {
      const w = await until(async () => (await pendingApprovals(session.store)).find((x) => !seen.has(x.request_id)));
      shown.push(Date.now() - w.since);
      seen.add(w.request_id);
      const before = lines().length;
      const answeredAt = Date.now();
      await answerApproval(session.store, 'user', w.request_id, { allow: true });
      const stamp = await until(async () => {
        const l = lines();
        return l.length > before ? Number(l[l.length - 1]) : undefined;
      });
      running.push(stamp - answeredAt);
    }
  } finally {
    watcher.close();
    await shutdownTeam(session, new LeadHandler(session), { graceMs: 1000, force: true }).catch(() => {});
    await session.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
  const dash = await dashboardApprovalLeg(Math.min(N, 20));
  const row = (what: string, v: number[]) => {
    const s = summarize(v);
    return { measure: what, n: s.n, p50_ms: round(s.p50, 1), p99_ms: round(s.p99, 1), max_ms: round(s.max, 1), target_ms: 100 };
  };
  return {
    title: `Approvals through a real teammate process (${N} Bash requests via the store; ${Math.min(N, 20)} through thclaws dashboard + Chromium)`,
    file: 'approvals',
    rows: [
      row('request → visible to the approver (pendingApprovals via the change feed)', shown),
      row('answer → approved command running (its own `date`)', running),
      row('request → card drawn in the dashboard (Chromium)', dash.shown),
      row('click on Approve → approved command running', dash.running),
    ],
    details: { shown, running, dashboard: dash },
  };
}
