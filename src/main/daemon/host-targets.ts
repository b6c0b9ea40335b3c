import fs from 'node:fs';
import path from 'node:path';
import { prepareDemoWorkspace, type DemoWorkspace } from '../host/demo-workspace.js';
import { thclawsBin } from '../host/host-options.js';
import { DASHBOARD_PROMPT } from '../host/demo-team.js';
import type { HostTarget } from './remote-views.js';

export interface HostLaunch {
  startLead?: boolean;
  leadScript?: string;
  leadPrompt?: string;
  demo?: boolean;
  /** Exit this long after the last client left, agents or not (a demo a view opened). */
  exitUnusedMs?: number;
  /** Exit this long after the last client left with no live agent (the host's default: 10 minutes). */
  idleMs?: number;
  /** Over ssh: only a host that runs, none started (`thclaws host connect --no-start`). */
  noStart?: boolean;
}

/** A demo opened from a dashboard ("Try the demo team") ends this long after its last view closed (a reload comes back well within it). */
export const DEMO_UNUSED_MS = 15_000;

/**
 * The `thclaws host` flags of a launch. `resolve`: what a lead script's path is taken against (this machine's
 * cwd; kept as given for a remote, whose own `host connect` resolves it there).
 */
export function launchFlags(launch: HostLaunch, resolve: (p: string) => string = (p) => p): string[] {
  return [
    ...(launch.startLead === false ? ['--no-lead'] : []),
    ...(launch.leadScript ? ['--lead-script', resolve(launch.leadScript)] : []),
    ...(launch.leadPrompt ? ['--lead-prompt', launch.leadPrompt] : []),
    ...(launch.demo ? ['--demo'] : []),
    ...(launch.exitUnusedMs ? ['--exit-unused-ms', String(launch.exitUnusedMs)] : []),
    ...(launch.idleMs !== undefined ? ['--idle-ms', String(launch.idleMs)] : []),
    ...(launch.noStart ? ['--no-start'] : []),
  ];
}

/** `thclaws host` for a workspace, as a dashboard starts it detached when none runs. */
export function hostTarget(dir: string, launch: HostLaunch = {}, env?: NodeJS.ProcessEnv): HostTarget {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`not a directory: ${dir}`);
  const workspace = path.resolve(dir);
  const argv = [thclawsBin(), 'host', '--dir', workspace, ...launchFlags(launch, path.resolve)];
  return { workspace, argv, ...(env ? { env } : {}) };
}

/**
 * The live demo's host: a throw-away workspace whose lead runs the demo script and is given the demo prompt.
 * Its own config dir and no model key reach the host's environment (the scripted provider needs none).
 * `fromView`: opened by "Try the demo team" in a dashboard, so its host exits once no view is left.
 */
export function demoTarget(env: NodeJS.ProcessEnv = process.env, opts: { fromView?: boolean; exitUnusedMs?: number } = {}): { demo: DemoWorkspace; target: HostTarget } {
  const demo = prepareDemoWorkspace();
  const script = demo.hostOptions.leadArgv![2]!;
  const exitUnusedMs = opts.fromView ? (opts.exitUnusedMs ?? DEMO_UNUSED_MS) : undefined;
  const target = hostTarget(demo.workspace, { leadScript: script, leadPrompt: DASHBOARD_PROMPT, demo: true, exitUnusedMs }, { ...env, ...demo.hostOptions.env });
  return { demo, target };
}
