import path from 'node:path';
import { isAgentName, isTaskId, type TeamEvent } from '../../core/team/index.js';

/**
 * Path → team event, the same mapping the store's change feed uses (config, log, inboxes, tasks, status,
 * output). Local adapter until the store exports `classifyTeamPath` from `src/core/team/classify.ts`.
 */
export function classifyTeamPath(teamDir: string, absPath: string): TeamEvent | null {
  const rel = path.relative(teamDir, absPath);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const parts = rel.split(path.sep);
  if (parts.length === 1) {
    if (parts[0] === 'config.json') return { kind: 'config', key: 'config' };
    if (parts[0] === 'team.log') return { kind: 'log', key: 'log' };
    return null;
  }
  const [dir, name, leaf] = parts as [string, string, string | undefined];
  if (dir === 'inboxes' && parts.length === 2) {
    const m = /^(.+)\.json$/.exec(name);
    return m && isAgentName(m[1]) ? { kind: 'inbox', key: `inbox:${m[1]}`, agent: m[1] } : null;
  }
  if (dir === 'tasks' && parts.length === 2) {
    const m = /^(.+)\.json$/.exec(name);
    return m && isTaskId(m[1]) ? { kind: 'task', key: `task:${m[1]}`, id: m[1] } : null;
  }
  if (dir === 'agents' && isAgentName(name)) {
    if (parts.length === 2) return { kind: 'status', key: `status:${name}`, agent: name };
    if (parts.length === 3 && leaf === 'status.json') return { kind: 'status', key: `status:${name}`, agent: name };
    if (parts.length === 3 && leaf === 'output.log') return { kind: 'output', key: `output:${name}`, agent: name };
  }
  return null;
}
