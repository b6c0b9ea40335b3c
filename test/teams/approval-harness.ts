/** Shared by the approval tests: a one-teammate team in `ask` mode, the CLI, and what the teammate saw. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN } from '../agent/helpers.js';
import { pendingApprovals } from '../../src/core/teams/approvals.js';
import { LeadHandler, type LeadEvent } from '../../src/core/teams/lead-handler.js';
import { spawnTeammate, type SpawnInput } from '../../src/core/teams/spawn.js';
import type { TeamSession, TeamSessionOptions } from '../../src/core/teams/session.js';
import { leadSession, stopLeadAndTeam, teamWorkspace, waitFor, writeScript, type Ws } from './helpers.js';

export const cleanups: Array<() => Promise<void> | void> = [];

export async function runCleanups(): Promise<void> {
  for (const c of cleanups.splice(0).reverse()) await c();
}

export async function team(turns: unknown[], settings: Record<string, unknown> = {}, spawn: Partial<SpawnInput> = {}, approvers?: TeamSessionOptions['approvers'], member: Record<string, unknown> = {}) {
  const ws = teamWorkspace({ teammatePermissionMode: 'ask', ...settings });
  const script = { rules: [{ match: 'Task #1 —', turns }], fallback: [{ text: 'ok' }] };
  const session = leadSession(ws, writeScript(ws, script), approvers ? { approvers } : {});
  session.store.init();
  await session.store.config.create({ name: 't', members: [{ name: 'alice', ...member }] });
  await session.becomeLead();
  const handler = new LeadHandler(session, { watchdogMs: 500 });
  const events: LeadEvent[] = [];
  handler.onEvent((e) => events.push(e));
  // What would become lead turns (the lead's model answering approvals when it is the approver).
  const prompts: string[] = [];
  handler.onWake(() => {
    const b = handler.drain();
    if (b.prompt) prompts.push(b.prompt);
  });
  handler.start();
  cleanups.push(() => stopLeadAndTeam(session, handler, ws));
  await session.store.tasks.create({ subject: 'Work', description: 'x', reservedFor: 'alice' });
  await spawnTeammate(session, { name: 'alice', ...spawn });
  return { ws, session, events, prompts };
}

export function cli(ws: Ws, ...args: string[]) {
  return cliEnv(ws, {}, ...args);
}

export function cliEnv(ws: Ws, env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, 'team', ...args, '--dir', ws.dir], { encoding: 'utf8', env: { ...process.env, HOME: ws.home, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

export const nextRequest = (session: TeamSession, seen: Set<string> = new Set()) =>
  waitFor(async () => (await pendingApprovals(session.store)).find((w) => !seen.has(w.request_id)), 'a pending permission request', 30_000);

/** Every tool result the teammate's model received, from its session transcripts. */
export function toolResults(ws: Ws): string {
  const dir = path.join(ws.dir, '.thclaws', 'sessions');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n') : '';
}

export const exists = (ws: Ws, f: string) => fs.existsSync(path.join(ws.dir, f));
export const done = (session: TeamSession) => waitFor(async () => (await session.store.tasks.get('1')).status === 'completed', 'task 1 completed', 30_000);
export const complete = { name: 'TeamTaskComplete', input: { task_id: '1', summary: 'done' } };
/** A worktree teammate commits before TeamTaskComplete (its task completes only with its work committed). */
export const commitWork = { name: 'Bash', input: { command: 'git add -A && git commit -qm work' } };

