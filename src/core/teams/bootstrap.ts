/**
 * A new worktree made ready to build and test in, once, before its teammate starts: the files `.worktreeinclude`
 * lists, the dependency folders of `worktree.reuse` whose lockfile matches (worktree-copy.ts), then the
 * `worktree.setup` command in the teammate's OS sandbox. Every line goes to the teammate's output.log, which is
 * its pane until its process starts. A failed setup fails the spawn with its last lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gitText } from '../git.js';
import { loadSettings, localSettingsPath, projectSettingsPath, userSettingsPath } from '../agent/settings.js';
import { createRoleSandbox, describeSandboxStatus, layeredSandboxSettings, readSettingsLayer } from '../sandbox/index.js';
import { MARK_ENV, newCheckMark, runCheck } from '../review/run-check.js';
import { processesCarrying } from '../group-mark.js';
import { WorktreeSettingsSchema, type WorktreeSettings } from '../../contract/settings-schema.js';
import type { TeamStore } from '../store/index.js';
import { selfProcess, TeamError } from '../store/index.js';
import { copyIncluded, includedFiles, reuseDependencies, WORKTREE_INCLUDE } from './worktree-copy.js';
import { discardWorktree, openWorktree } from './worktree.js';

/**
 * The workspace's `worktree` settings now, with the layers' trust rules (a project's setup command counts only
 * in a trusted folder); read at each spawn, so what the dashboard's Settings change applies to the next one.
 * Unreadable settings give the defaults: the agents report the bad file themselves.
 */
export function worktreeSettings(root: string, env: NodeJS.ProcessEnv = process.env): WorktreeSettings {
  try {
    return loadSettings(root, env).settings.worktree;
  } catch {
    return WorktreeSettingsSchema.parse({});
  }
}

/** A setup that runs longer than this is killed and the spawn fails: an install hung on the network. */
export const SETUP_TIMEOUT_MS = 15 * 60_000;
/** Lines of the setup's output a failed spawn quotes. */
const FAILURE_LINES = 15;

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export interface BootstrapInput {
  store: TeamStore;
  name: string;
  root: string;
  wt: string;
  settings: Pick<WorktreeSettings, 'setup' | 'reuse'>;
  /** The teammate's own variables (its ports, a test's HOME): the setup command sees what its commands see. */
  env: Record<string, string>;
  /** Where the lead's user settings are read (the sandbox's layer rules). */
  processEnv?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** An earlier bootstrap of this worktree did not finish: said first in the pane, its setup's processes stopped. */
  again?: { mark: string | null };
  /** The setup run's mark (run-check.ts), recorded by the caller where a later spawn finds it. */
  mark?: string;
}

/** The setup command, wrapped in the teammate's OS sandbox (or as it is, with why, where none runs). */
async function sandboxed(input: BootstrapInput, command: string): Promise<{ line: string; note: string }> {
  const env = input.processEnv ?? process.env;
  const project = { ...readSettingsLayer(projectSettingsPath(input.root)), ...readSettingsLayer(localSettingsPath(input.root)) };
  const settings = layeredSandboxSettings(readSettingsLayer(userSettingsPath(env)), project).settings;
  const common = (await gitText(input.wt, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  const home = input.env.HOME ?? env.HOME;
  const sandbox = createRoleSandbox({ role: 'teammate', workspaceRoot: input.root, cwd: input.wt, agentName: input.name, gitCommonDir: common, ...(home ? { home } : {}) }, settings);
  const status = await sandbox.ready();
  // `required` and no sandbox: wrap() refuses, and so the spawn fails with the reason.
  const line = await sandbox.wrap(command, new AbortController().signal);
  return { line, note: status.state === 'os' ? "in the teammate's OS sandbox" : `without the OS sandbox: ${describeSandboxStatus(status)}` };
}

/** Runs the bootstrap of a worktree made by this spawn; throws (the caller removes the worktree) when setup fails. */
export async function bootstrapWorktree(input: BootstrapInput): Promise<void> {
  const { store, name, root, wt, settings } = input;
  const log = store.outputs.append(name);
  const say = (line: string) => log.write(`[worktree] ${line}\n`);
  try {
    if (input.again) {
      // Orphaned by a killed spawner, the last setup may still be installing into this very worktree.
      const left = input.again.mark ? processesCarrying(`${MARK_ENV}=${input.again.mark}`) : [];
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      say(`its last bootstrap did not finish (that spawn was stopped)${left.length ? `; stopped its setup, still running (${left.length} process(es))` : ''}: bootstrapping again`);
    }
    const files = await includedFiles(root);
    if (files.length) say(`copied ${copyIncluded(root, wt, files)} file(s) listed in ${WORKTREE_INCLUDE}`);
    for (const r of await reuseDependencies(root, wt, settings.reuse)) {
      say(r.how ? `${r.dir}: cloned from the lead's checkout (${r.how}, ${r.ms} ms)` : `${r.dir}: not reused: ${r.skipped}`);
    }
    const setup = settings.setup?.trim();
    if (!setup) return;
    // Variables travel in the command: the wrapped line runs it with the sandbox's environment otherwise.
    const exports = Object.entries(input.env).map(([k, v]) => `export ${k}=${quote(v)}; `).join('');
    const { line, note } = await sandboxed(input, `unset ANTHROPIC_API_KEY ANTHROPIC_AUTH_TOKEN; ${exports}${setup}`);
    say(`$ ${setup}   (worktree.setup, ${note})`);
    const tail: string[] = [];
    const keep = (s: string) => {
      log.write(s);
      tail.push(...s.split(/\r?\n/));
      if (tail.length > 200) tail.splice(0, tail.length - 200);
    };
    const t0 = Date.now();
    const code = await runCheck(line, wt, keep, input.timeoutMs ?? SETUP_TIMEOUT_MS, undefined, input.mark);
    say(`setup ${code === 0 ? 'done' : `failed (${code === null ? 'killed' : `exit ${code}`})`} in ${Date.now() - t0} ms`);
    if (code !== 0) {
      const last = tail.filter((l) => l.trim()).slice(-FAILURE_LINES).join('\n');
      throw new Error(`worktree.setup \`${setup}\` ${code === null ? 'was killed' : `exited ${code}`}${last ? `; its last lines:\n${last}` : ' with no output'}`);
    }
  } finally {
    await log.close();
  }
}

/**
 * Present in the worktree's git dir while its bootstrap runs: a spawn killed before the end (the lead's process
 * killed during an install) leaves it, and the next spawn of the name bootstraps again rather than start a
 * teammate in a worktree without its dependencies. Never in the worktree itself (it would read as a change).
 */
const PENDING = 'thclaws-bootstrap-pending';

/** The unfinished setup's mark, when its marker says (an unreadable one: nothing to stop). */
function readMark(marker: string): string | null {
  try {
    const m = (JSON.parse(fs.readFileSync(marker, 'utf8')) as { mark?: unknown }).mark;
    return typeof m === 'string' && /^[0-9a-f]+$/.test(m) ? m : null;
  } catch {
    return null;
  }
}

async function pendingMarker(wt: string): Promise<string> {
  return path.join((await gitText(wt, ['rev-parse', '--path-format=absolute', '--git-dir'])).trim(), PENDING);
}

/**
 * The teammate's worktree, bootstrapped when this spawn made it or an earlier bootstrap of it did not finish.
 * A failed bootstrap of a worktree it made leaves neither the worktree nor a branch it made; of one found
 * unfinished, the worktree stays (the next spawn tries again). Either way the teammate's status says why (it
 * never started).
 */
export async function readyWorktree(input: Omit<BootstrapInput, 'wt'>): Promise<string> {
  const { dir, created, madeBranch } = openWorktree(input.root, input.name);
  const marker = await pendingMarker(dir);
  const unfinished = !created && fs.existsSync(marker);
  if (!created && !unfinished) return dir;
  const again = unfinished ? { mark: readMark(marker) } : undefined;
  const mark = newCheckMark();
  fs.writeFileSync(marker, `${JSON.stringify({ pid: process.pid, mark })}\n`);
  // `spawning` by this process, kept fresh while the bootstrap runs (an install takes minutes): a second spawn of
  // the name is refused meanwhile, and the card says what is happening.
  // Its mark there too: a Stop of the name meanwhile (the person's, on its card) ends the setup (endBootstrap).
  const busy = () => input.store.statuses.write(input.name, { status: 'spawning', pid: null, spawn_id: undefined, spawner: selfProcess(), bootstrap_mark: mark } as never).catch(() => undefined);
  await busy();
  const beat = setInterval(() => void busy(), 2000);
  try {
    await bootstrapWorktree({ ...input, wt: dir, again, mark });
    fs.rmSync(marker, { force: true });
  } catch (err) {
    // No beat may write `spawning` over the failure below.
    clearInterval(beat);
    if (created) discardWorktree(input.root, input.name, madeBranch);
    const why = `refusing to spawn ${input.name}: ${(err as Error).message}`;
    await input.store.statuses.write(input.name, { status: 'stopped', pid: null, last_error: why } as never).catch(() => undefined);
    throw new TeamError('conflict', why);
  } finally {
    clearInterval(beat);
  }
  return dir;
}

/**
 * A Stop of a teammate whose worktree bootstraps (no process of its own yet): its setup's processes end, so its
 * spawner fails the spawn at once as for any failed setup (worktree and branch gone, status `stopped` with the
 * last lines) rather than wait out a hung install. Waits up to `waitMs` for that; false when no setup runs.
 */
export async function endBootstrap(store: TeamStore, name: string, waitMs: number): Promise<boolean> {
  const bootstrapping = async () => {
    const st = await store.statuses.read(name).catch(() => null);
    return st?.status === 'spawning' && !st.pid ? (st.bootstrap_mark ?? null) : null;
  };
  const mark = await bootstrapping();
  const pids = mark ? processesCarrying(`${MARK_ENV}=${mark}`) : [];
  if (!pids.length) return false;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  for (const end = Date.now() + waitMs; Date.now() < end && (await bootstrapping()) === mark; ) await new Promise((r) => setTimeout(r, 50));
  return true;
}
