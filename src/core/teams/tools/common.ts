import type { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../../agent/types.js';
import type { TeamSession } from '../session.js';

/** A team tool bound to the session (identity, store, roots resolved once). */
export function teamTool<I>(def: {
  name: string;
  description: string;
  inputSchema: z.ZodType<I>;
  needsPermission?: boolean;
  /**
   * Acts as the team's lead (writes the board, spawns, merges, speaks as `lead`): refused in a session that
   * is not the lead, e.g. a person's second session whose TeamCreate was refused while another lead lives.
   */
  leadOnly?: boolean;
  run(input: I, session: TeamSession, ctx: ToolContext): Promise<string | ToolResult>;
}, session: TeamSession): Tool<I> {
  return {
    name: def.name,
    description: def.description,
    inputSchema: def.inputSchema,
    needsPermission: def.needsPermission ?? false,
    async run(input, ctx) {
      if (session.lease?.lost) return err(`this process no longer holds the "${session.lease.agent}" lease (another process took over): team tools are disabled`);
      if (def.leadOnly && session.role !== 'lead') {
        return err(`${def.name}: only the team's lead may do this, and this session is not the lead (${session.teamExists() ? 'another session leads the team' : 'create a team with TeamCreate first'})`);
      }
      const r = await def.run(input, session, ctx);
      return typeof r === 'string' ? { content: r } : r;
    },
  };
}

export function err(content: string): ToolResult {
  return { content, isError: true };
}
