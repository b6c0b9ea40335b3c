/**
 * The Agent SDK's hook callbacks (registered in `initialize`): a PreToolUse callback runs in the host process
 * through a `hook_callback` control request before the tool's own guards, and can block the call. Other
 * events are refused by name in the initialize response and on stderr, never silently dropped.
 */
import { z } from 'zod';
import type { Tool } from '../../core/agent/types.js';
import type { OutgoingRequests } from './control-protocol.js';
import type { Runtime } from './setup.js';

export const SUPPORTED_SDK_HOOKS = ['PreToolUse'] as const;

const HookAnswer = z
  .object({
    continue: z.boolean().optional(),
    decision: z.enum(['approve', 'block']).optional(),
    reason: z.string().optional(),
    stopReason: z.string().optional(),
    hookSpecificOutput: z
      .object({ permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(), permissionDecisionReason: z.string().optional() })
      .loose()
      .optional(),
  })
  .loose();

/** Claude Code's matcher: empty or `*` for every tool, else a tool name or an anchored alternation (`Write|Edit`). */
export function matcherMatches(matcher: string | undefined, tool: string): boolean {
  if (!matcher || matcher === '*') return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(tool);
  } catch {
    return matcher === tool;
  }
}

type Matchers = { matcher?: string | undefined; hookCallbackIds: string[] }[];

export function installPreToolUse(rt: Runtime, out: OutgoingRequests, matchers: Matchers): void {
  const list = rt.agent.tools as Tool<any>[];
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    const ids = matchers.filter((m) => matcherMatches(m.matcher, t.name)).flatMap((m) => m.hookCallbackIds);
    if (!ids.length) continue;
    const preflight = t.preflight?.bind(t);
    list[i] = {
      ...t,
      preflight: async (input, ctx) => {
        for (const callbackId of ids) {
          const hookInput = { hook_event_name: 'PreToolUse', session_id: rt.agent.session.id, transcript_path: rt.agent.session.file, cwd: rt.info.cwd, tool_name: t.name, tool_input: input };
          let raw: Record<string, unknown>;
          try {
            raw = await out.send({ subtype: 'hook_callback', callback_id: callbackId, input: hookInput }, ctx.signal);
          } catch (err) {
            return { content: `PreToolUse hook failed, so ${t.name} was not run: ${(err as Error).message}`, isError: true };
          }
          const a = HookAnswer.safeParse(raw);
          if (!a.success) return { content: `PreToolUse hook answered in an unknown shape, so ${t.name} was not run`, isError: true };
          const d = a.data;
          const denied = d.decision === 'block' || d.continue === false || d.hookSpecificOutput?.permissionDecision === 'deny';
          if (denied) {
            const why = d.hookSpecificOutput?.permissionDecisionReason ?? d.reason ?? d.stopReason ?? 'no reason given';
            return { content: `blocked by a PreToolUse hook: ${why}`, isError: true };
          }
        }
        return preflight?.(input, ctx);
      },
    };
  }
}
