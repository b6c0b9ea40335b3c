/**
 * A new worktree made ready to build and test in, once, before its teammate starts: the files `.worktreeinclude`
 * lists, the dependency folders of `worktree.reuse` whose lockfile matches (worktree-copy.ts), then the
 * `worktree.setup` command in the teammate's OS sandbox. Every line goes to the teammate's output.log, which is
 * its pane until its process starts. A failed setup fails the spawn with its last lines.
 */
import { gitText } from '../git.js';
import { loadSettings, localSettingsPath, projectSettingsPath, userSettingsPath } from '../agent/settings.js';
import { createRoleSandbox, describeSandboxStatus, layeredSandboxSettings, readSettingsLayer } from '../sandbox/index.js';
import { runCheck } from '../review/run-check.js';
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
    const code = await runCheck(line, wt, keep, input.timeoutMs ?? SETUP_TIMEOUT_MS);
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
 * The teammate's worktree, bootstrapped when this spawn made it. A failed bootstrap leaves neither the worktree
 * nor a branch it made, and the teammate's status says why (it never started).
 */
export async function readyWorktree(input: Omit<BootstrapInput, 'wt'>): Promise<string> {
  const { dir, created, madeBranch } = openWorktree(input.root, input.name);
  if (!created) return dir;
  // `spawning` by this process, kept fresh while the bootstrap runs (an install takes minutes): a second spawn of
  // the name is refused meanwhile, and the card says what is happening.
  const busy = () => input.store.statuses.write(input.name, { status: 'spawning', pid: null, spawn_id: undefined, spawner: selfProcess() } as never).catch(() => undefined);
  await busy();
  const beat = setInterval(() => void busy(), 2000);
  try {
    await bootstrapWorktree({ ...input, wt: dir });
  } catch (err) {
    discardWorktree(input.root, input.name, madeBranch);
    const why = `refusing to spawn ${input.name}: ${(err as Error).message}`;
    await input.store.statuses.write(input.name, { status: 'stopped', pid: null, last_error: why } as never).catch(() => undefined);
    throw new TeamError('conflict', why);
  } finally {
    clearInterval(beat);
  }
  return dir;
}
