import type { Tool } from '../../agent/types.js';
import type { TeamSession } from '../session.js';
import { approvalTool } from './approval-tools.js';
import { mergeTool } from './merge-tool.js';
import { messageTools } from './message-tools.js';
import { taskTools } from './task-tools.js';
import { teamTools } from './team-tools.js';

/**
 * The team tools for a role. Teammates never get TeamCreate, SpawnTeammate, TeamMerge or TeamTaskUpdate;
 * the lead (or a session that may become it) never gets TeamTaskClaim/TeamTaskComplete, and a session that is
 * not (yet) the lead is refused the tools that act as the lead.
 */
export function teamToolsFor(session: TeamSession): Tool<any>[] {
  const { create, spawn, status } = teamTools(session);
  if (session.role === 'teammate') return [...messageTools(session, 'teammate'), status, ...taskTools(session, 'teammate')];
  return [create, spawn, ...messageTools(session, 'lead'), status, ...taskTools(session, 'lead'), mergeTool(session), approvalTool(session)];
}
