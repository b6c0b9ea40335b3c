/** Team tests: real git workspaces, real thclaws teammate processes, the test process as the lead. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { BIN, ensureBuilt, tempDir } from '../agent/helpers.js';
import type { RecordedRequest } from '../agent/fake-anthropic.js';
import { trustFolder } from '../../src/core/agent/trust.js';
import type { LeadHandler } from '../../src/core/teams/lead-handler.js';
import { TeamSession, type TeamSessionOptions } from '../../src/core/teams/session.js';
import { shutdownTeam } from '../../src/core/teams/shutdown.js';
import { deriveState, pidAlive, TeamStore } from '../../src/core/store/index.js';
import { ensureWorktree } from '../../src/core/teams/worktree.js';

export interface Ws {
  dir: string;
  home: string;
  cleanup(): void;
}

/**
 * A git repository with an identity, `teamEnabled` settings and a private HOME. Teammates run unattended
 * (`teammatePermissionMode: "auto"`, the folder trusted) unless a test's settings say otherwise: the
 * approval tests pass `teammatePermissionMode: "ask"`.
 */
export function teamWorkspace(settings: Record<string, unknown> = {}): Ws {
  const t = tempDir('thclaws-team-');
  const dir = path.join(t.dir, 'ws');
  const home = path.join(t.dir, 'home');
  fs.mkdirSync(dir);
  fs.mkdirSync(home);
  const g = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
  g('init', '-q', '-b', 'main');
  g('config', 'user.email', 'test@thclaws.local');
  g('config', 'user.name', 'thclaws test');
  fs.writeFileSync(path.join(dir, 'README.md'), '# test project\n');
  g('add', '-A');
  g('commit', '-qm', 'init');
  fs.mkdirSync(path.join(dir, '.thclaws'));
  fs.writeFileSync(path.join(dir, '.thclaws', 'settings.json'), JSON.stringify({ teamEnabled: true, teammateMode: 'background', teammatePermissionMode: 'auto', ...settings }));
  // Trusted for teammates this process spawns (they inherit its XDG_CONFIG_HOME) and for CLI runs with HOME=home.
  trustFolder(dir);
  trustFolder(dir, { HOME: home });
  return { dir, home, cleanup: () => killAll(dir) && t.cleanup() };
}

export function writeScript(ws: Ws, script: unknown, name = 'script.json'): string {
  const file = path.join(path.dirname(ws.dir), name);
  fs.writeFileSync(file, JSON.stringify(script));
  return file;
}

/** The test process as the lead of a team in `ws` (teammates are real `thclaws` processes). */
export function leadSession(ws: Ws, script: string, opts: Partial<TeamSessionOptions> = {}): TeamSession {
  return new TeamSession({
    projectRoot: ws.dir,
    teamDir: path.join(ws.dir, '.thclaws', 'state', 'team'),
    cwd: ws.dir,
    role: 'solo',
    teammateMode: 'background',
    selfArgv: [process.execPath, BIN],
    childFlags: ['--script', script],
    defaultModel: 'scripted',
    maxLiveTeammates: 8,
    childEnv: { HOME: ws.home, THCLAWS_TEST: '1' },
    ...opts,
  });
}

export async function waitFor<T>(fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Kills every teammate process a test left behind, by the pid in its status (never by pattern). */
export function killAll(dir: string): true {
  const agents = path.join(dir, '.thclaws', 'state', 'team', 'agents');
  let names: string[] = [];
  try {
    names = fs.readdirSync(agents);
  } catch {
    return true;
  }
  for (const n of names) {
    try {
      const st = JSON.parse(fs.readFileSync(path.join(agents, n, 'status.json'), 'utf8'));
      if (st.pid && st.pid !== process.pid && pidAlive(st.pid)) {
        try {
          process.kill(-st.pid, 'SIGKILL');
        } catch {
          process.kill(st.pid, 'SIGKILL');
        }
      }
    } catch {
      // no status
    }
  }
  return true;
}

export async function stateOf(session: TeamSession, name: string) {
  return deriveState(await session.store.statuses.read(name));
}

/**
 * The file's clean-ups: the CLI is built once before its tests, and what a test pushes here runs after it,
 * newest first (a lead closes before its workspace is removed).
 */
export function cleanupsAfterEach(): Array<() => Promise<void> | void> {
  const cleanups: Array<() => Promise<void> | void> = [];
  beforeAll(ensureBuilt, 120_000);
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return cleanups;
}

/** A test's end: the lead handler stopped, the team shut down (forced, errors ignored), the workspace removed. */
export async function stopLeadAndTeam(session: TeamSession, handler: LeadHandler, ws: { cleanup(): void }): Promise<void> {
  handler.stop();
  await shutdownTeam(session, handler, { graceMs: 500, force: true }).catch(() => {});
  await session.close();
  ws.cleanup();
}

/** Models asked for by the conversations that open with `marker` (each teammate's initial prompt is unique). */
export function modelsAsked(requests: RecordedRequest[], marker: string): string[] {
  return [...new Set(requests.filter((r) => r.url.startsWith('/v1/messages') && JSON.stringify(r.body.messages[0]).includes(marker)).map((r) => r.body.model as string))];
}

/** A team workspace whose members each work in a git worktree of their own (`worktrees`, in order). */
export async function worktreeTeam(names: string[]): Promise<{ ws: Ws; store: TeamStore; worktrees: string[] }> {
  const ws = teamWorkspace();
  const store = TeamStore.forWorkspace(ws.dir);
  store.init();
  await store.config.create({ name: 't', members: names.map((name) => ({ name, isolation: 'worktree' as const })) });
  return { ws, store, worktrees: names.map((n) => ensureWorktree(ws.dir, n)) };
}
