/**
 * Whether agents started in a workspace get the OS sandbox, as a process that runs none itself (the desktop
 * host) can tell: the sandbox settings with the agents' layer rules, then the same probe the agents run.
 */
import { readFileSync } from 'node:fs';
import { localSettingsPath, projectSettingsPath, userSettingsPath } from '../agent/settings.js';
import { probeSandbox } from './runtime.js';
import { layeredSandboxSettings } from './settings.js';
import type { SandboxStatus } from './status.js';

/** One settings file as an object; a missing or unreadable file is empty (the settings loader reports those). */
export function readSettingsLayer(file: string): Record<string, unknown> {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function workspaceSandboxStatus(workspace: string, env: NodeJS.ProcessEnv = process.env): Promise<SandboxStatus> {
  const project = { ...readSettingsLayer(projectSettingsPath(workspace)), ...readSettingsLayer(localSettingsPath(workspace)) };
  let sandbox: string;
  try {
    sandbox = layeredSandboxSettings(readSettingsLayer(userSettingsPath(env)), project).settings.sandbox;
  } catch (err) {
    return { state: 'guards-only', reason: (err as Error).message, fix: 'correct the sandbox keys in settings.json' };
  }
  if (sandbox === 'off') return { state: 'off', reason: `setting sandbox: "off" in ${userSettingsPath(env)}` };
  return probeSandbox();
}
