import path from 'node:path';
import { isAgentName, isTaskId } from './names.js';

/**
 * A change in the team dir. Level-triggered: it says *what* may have changed, never how often; consumers
 * re-read state (chokidar/fs.watch coalesce and duplicate events, so counting them would be wrong).
 */
export type TeamEvent =
  | { kind: 'config'; key: 'config' }
  | { kind: 'log'; key: 'log' }
  | { kind: 'inbox'; key: `inbox:${string}`; agent: string }
  | { kind: 'task'; key: `task:${string}`; id: string }
  | { kind: 'status'; key: `status:${string}`; agent: string }
  | { kind: 'output'; key: `output:${string}`; agent: string }
  | { kind: 'spawn'; key: `spawn:${string}`; agent: string }
  | { kind: 'review'; key: `review:${string}`; agent: string };

/** Which team directory a name was seen in: the root, one of the three fixed dirs, or one agent's dir. */
export type TeamDirKind = 'root' | 'inboxes' | 'tasks' | 'agents' | { agent: string };

const INBOX_SUFFIX = '.json';
const TASK_SUFFIX = '.json';

/**
 * The event for entry `name` of a team directory, or null for anything that is not team state (temp files,
 * locks, archives, quarantined copies). The one place the layout maps to events: the store's fs.watch feed
 * and the desktop's chokidar watcher both use it.
 */
export function classifyEntry(dir: TeamDirKind, name: string): TeamEvent | null {
  if (dir === 'root') {
    if (name === 'config.json') return { kind: 'config', key: 'config' };
    if (name === 'team.log') return { kind: 'log', key: 'log' };
    // Budgets are part of the team's configuration: a raised limit wakes a teammate waiting on it.
    if (name === 'budgets.json') return { kind: 'config', key: 'config' };
    return null;
  }
  if (dir === 'inboxes') {
    if (!name.endsWith(INBOX_SUFFIX)) return null;
    const agent = name.slice(0, -INBOX_SUFFIX.length);
    return isAgentName(agent) ? { kind: 'inbox', key: `inbox:${agent}`, agent } : null;
  }
  if (dir === 'tasks') {
    if (!name.endsWith(TASK_SUFFIX)) return null;
    const id = name.slice(0, -TASK_SUFFIX.length);
    return isTaskId(id) ? { kind: 'task', key: `task:${id}`, id } : null;
  }
  // An agent directory appearing or vanishing changes that agent's status.
  if (dir === 'agents') return isAgentName(name) ? { kind: 'status', key: `status:${name}`, agent: name } : null;
  if (name === 'status.json') return { kind: 'status', key: `status:${dir.agent}`, agent: dir.agent };
  if (name === 'output.log') return { kind: 'output', key: `output:${dir.agent}`, agent: dir.agent };
  if (name === 'spawn.json') return { kind: 'spawn', key: `spawn:${dir.agent}`, agent: dir.agent };
  if (name === 'review.json') return { kind: 'review', key: `review:${dir.agent}`, agent: dir.agent };
  return null;
}

/**
 * The event for an absolute path under `teamDir` (as chokidar reports it), or null when the path is not team
 * state or lies outside the team dir. Accepts `/` and `\` separators.
 */
export function classifyTeamPath(teamDir: string, absPath: string): TeamEvent | null {
  const rel = path.relative(teamDir, absPath);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(/[\\/]+/);
  if (parts.length === 1) return classifyEntry('root', parts[0]!);
  const [top, second, third] = parts;
  if (parts.length === 2) {
    if (top === 'inboxes') return classifyEntry('inboxes', second!);
    if (top === 'tasks') return classifyEntry('tasks', second!);
    if (top === 'agents') return classifyEntry('agents', second!);
    return null;
  }
  if (parts.length === 3 && top === 'agents' && isAgentName(second)) return classifyEntry({ agent: second }, third!);
  return null;
}
