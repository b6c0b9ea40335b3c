/**
 * The `checks` of the merge panel run in the OS sandbox under the lead's rules, with the integration worktree
 * in the place of the lead's checkout: the check may write the lead's build directories there (node_modules,
 * dist, …) and scratch space, nothing else of the project. Where the sandbox cannot run, the checks run
 * without it and the caller says so.
 */
import { localSettingsPath, projectSettingsPath, userSettingsPath } from '../agent/settings.js';
import { createRoleSandbox, layeredSandboxSettings, readSettingsLayer } from '../sandbox/index.js';
import { describeSandboxStatus } from '../sandbox/status.js';
import { gitText } from '../git.js';

export interface ChecksSandbox {
  wrap: ((command: string, dir: string) => Promise<string>) | null;
  /** One line: whether the checks run sandboxed, and why not. */
  text: string;
}

export async function checksSandbox(root: string, dir: string, env: NodeJS.ProcessEnv = process.env): Promise<ChecksSandbox> {
  let settings;
  try {
    const project = { ...readSettingsLayer(projectSettingsPath(root)), ...readSettingsLayer(localSettingsPath(root)) };
    settings = layeredSandboxSettings(readSettingsLayer(userSettingsPath(env)), project).settings;
  } catch (err) {
    return { wrap: null, text: `checks run without the OS sandbox: ${(err as Error).message}` };
  }
  const common = (await gitText(dir, ['rev-parse', '--path-format=absolute', '--git-common-dir'])).trim();
  const sandbox = createRoleSandbox({ role: 'lead', workspaceRoot: dir, cwd: dir, gitCommonDir: common, ...(env.HOME ? { home: env.HOME } : {}) }, settings);
  const status = await sandbox.ready();
  if (status.state !== 'os') return { wrap: null, text: `checks run without the OS sandbox: ${describeSandboxStatus(status)}` };
  return { wrap: (command) => sandbox.wrap(command, new AbortController().signal), text: "checks run in the OS sandbox with the lead's build-directory rules" };
}
