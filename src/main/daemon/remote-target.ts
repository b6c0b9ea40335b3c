import { loadSettings } from '../../core/agent/settings.js';
import type { HostLaunch } from './host-targets.js';
import type { HostTarget } from './remote-views.js';
import { parseRemoteUrl, sshCommand } from './remote-url.js';

/**
 * The person's `remote` settings, from their USER settings only: a project's settings (a cloned repository's,
 * untrusted) are never read for them, so a folder cannot choose the command this machine runs to reach a remote.
 */
export function remoteSettings(env: NodeJS.ProcessEnv = process.env): { ssh?: string; bin?: string } {
  return loadSettings(process.cwd(), env, { sources: ['user'] }).settings.remote ?? {};
}

export interface RemoteChoice {
  /** `ssh://[user@]host[:port]/path` */
  url: string;
  /** `--remote-bin`: over the setting `remote.bin`; default `thclaws` on the remote's PATH. */
  bin?: string;
  /** "Use my key there": the local key to hold in the remote host's memory; absent, nothing local is sent. */
  key?: () => string | null;
}

/** The host of a workspace on another machine: the ssh command (THCLAWS_SSH, else `remote.ssh`, else `ssh`) and the program there. */
export function remoteTarget(choice: RemoteChoice, launch: HostLaunch, env: NodeJS.ProcessEnv = process.env): HostTarget {
  const remote = parseRemoteUrl(choice.url);
  const settings = remoteSettings(env);
  const bin = choice.bin ?? settings.bin;
  return {
    workspace: remote.dir,
    argv: [],
    env,
    remote: { remote, launch, ssh: sshCommand(env, settings), ...(bin ? { bin } : {}), ...(choice.key ? { key: choice.key } : {}) },
  };
}
