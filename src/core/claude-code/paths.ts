/**
 * Where Claude Code keeps a team's files (as seen with 2.1.333): all under `$CLAUDE_CONFIG_DIR` or
 * `$HOME/.claude`. Names are sanitised the way Claude Code does (anything but [A-Za-z0-9_-] becomes '-').
 */
import os from 'node:os';
import path from 'node:path';

export function claudeDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR || path.join(env.HOME || os.homedir(), '.claude');
}

/** Claude Code's own name sanitiser, for team, member and task-list file names. */
export function safeName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '-');
}

export const teamsDir = (root = claudeDir()) => path.join(root, 'teams');
export const teamDir = (team: string, root = claudeDir()) => path.join(teamsDir(root), safeName(team));
export const teamConfigFile = (team: string, root = claudeDir()) => path.join(teamDir(team, root), 'config.json');
export const inboxFile = (team: string, member: string, root = claudeDir()) => path.join(teamDir(team, root), 'inboxes', `${safeName(member)}.json`);
export const tasksDir = (team: string, root = claudeDir()) => path.join(root, 'tasks', safeName(team));
export const sessionFile = (pid: number, root = claudeDir()) => path.join(root, 'sessions', `${pid}.json`);
/** A session's transcripts live under the project folder named after its working directory. */
export const projectDir = (cwd: string, root = claudeDir()) => path.join(root, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
export const leadTranscript = (cwd: string, sessionId: string, root = claudeDir()) => path.join(projectDir(cwd, root), `${sessionId}.jsonl`);
export const subagentsDir = (cwd: string, sessionId: string, root = claudeDir()) => path.join(projectDir(cwd, root), sessionId, 'subagents');
/** thclaws' own folder beside Claude Code's files: pending approvals and the settings backup (0700). */
export const thclawsDir = (root = claudeDir()) => path.join(root, 'thclaws');
export const approvalsDir = (root = claudeDir()) => path.join(thclawsDir(root), 'approvals');
export const userSettingsFile = (root = claudeDir()) => path.join(root, 'settings.json');
