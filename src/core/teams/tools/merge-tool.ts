import { z } from 'zod';
import { teamMerge } from '../merge.js';
import type { TeamSession } from '../session.js';
import { teamTool } from './common.js';

export function mergeTool(session: TeamSession) {
  return teamTool(
    {
      name: 'TeamMerge',
      description:
        'Merge teammates\' team/<name> branches into `into` (default: the current branch). dry_run lists commits and predicts conflicts without touching the tree; leave_conflicted leaves a conflicted merge in progress for you to resolve (abort: true backs out of it; a merge the person is resolving is theirs and cannot be aborted); cleanup removes merged worktrees of stopped teammates.',
      needsPermission: true,
      leadOnly: true,
      inputSchema: z
        .object({
          into: z.string().optional(),
          only: z.array(z.string()).optional(),
          dry_run: z.boolean().optional(),
          cleanup: z.boolean().optional(),
          leave_conflicted: z.boolean().optional(),
          abort: z.boolean().optional().describe('back out of a merge you left in progress (refused while the person is resolving it)'),
        })
        .strict(),
      async run(input, s) {
        return teamMerge(s, input);
      },
    },
    session,
  );
}
