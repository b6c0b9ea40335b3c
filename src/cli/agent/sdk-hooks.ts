/**
 * The Agent SDK's hook callbacks (registered in `initialize`): a PreToolUse callback runs in the host process
 * through a `hook_callback` control request after the call's input is validated, before its guards and the
 * permission check. Its answer (the SDK's `PreToolUseHookSpecificOutput`) can deny, replace the input
 * (`updatedInput`, checked again like the model's own), make the call ask (`ask`, even in bypass mode) and
 * add context for the model (`additionalContext`); `allow` skips nothing (our permission check still runs).
 * Other events are refused by name in the initialize response and on stderr, never silently dropped.
 */
import { z } from 'zod';
import type { BeforeToolAnswer } from '../../core/agent/types.js';
import { sdkModeName } from './claude-json.js';
import type { OutgoingRequests } from './control-protocol.js';
import type { Runtime } from './setup.js';

export const SUPPORTED_SDK_HOOKS = ['PreToolUse'] as const;

export const HookAnswer = z
  .object({
    continue: z.boolean().optional(),
    decision: z.enum(['approve', 'block']).optional(),
    reason: z.string().optional(),
    stopReason: z.string().optional(),
    hookSpecificOutput: z
      .object({
        permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
        permissionDecisionReason: z.string().optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        additionalContext: z.string().max(100_000).optional(),
      })
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

/** One callback's answer as a before-tool decision (pure: what each field of the SDK's output does). */
export function hookDecision(raw: unknown, tool: string): BeforeToolAnswer {
  const a = HookAnswer.safeParse(raw);
  if (!a.success) return { deny: `PreToolUse hook answered in an unknown shape, so ${tool} was not run` };
  const d = a.data;
  const out = d.hookSpecificOutput;
  const why = out?.permissionDecisionReason ?? d.reason ?? d.stopReason;
  if (d.decision === 'block' || d.continue === false || out?.permissionDecision === 'deny') return { deny: `blocked by a PreToolUse hook: ${why ?? 'no reason given'}`, deniedByClient: true };
  return {
    ...(out?.updatedInput ? { input: out.updatedInput } : {}),
    ...(out?.permissionDecision === 'ask' ? { ask: why ?? 'a PreToolUse hook asks for this call' } : {}),
    ...(out?.additionalContext ? { context: out.additionalContext } : {}),
  };
}

export function installPreToolUse(rt: Runtime, out: OutgoingRequests, matchers: Matchers): void {
  const previous = rt.agent.beforeTool;
  rt.agent.beforeTool = async (call, signal) => {
    const first = await previous?.(call, signal);
    if (first?.deny !== undefined) return first;
    let input = first?.input ?? call.input;
    let ask = first?.ask;
    const context = first?.context ? [first.context] : [];
    const ids = matchers.filter((m) => matcherMatches(m.matcher, call.tool)).flatMap((m) => m.hookCallbackIds);
    for (const callbackId of ids) {
      const hookInput = {
        hook_event_name: 'PreToolUse',
        session_id: rt.agent.session.id,
        transcript_path: rt.agent.session.file,
        cwd: rt.info.cwd,
        permission_mode: sdkModeName(rt.permissions.currentMode),
        tool_name: call.tool,
        tool_input: input,
        tool_use_id: call.toolUseId,
      };
      let raw: Record<string, unknown>;
      try {
        raw = await out.send({ subtype: 'hook_callback', callback_id: callbackId, input: hookInput, tool_use_id: call.toolUseId }, signal);
      } catch (err) {
        return { deny: `PreToolUse hook failed, so ${call.tool} was not run: ${(err as Error).message}` };
      }
      const d = hookDecision(raw, call.tool);
      if (d.deny !== undefined) return d;
      // Each later callback sees the input as the earlier ones left it.
      if (d.input !== undefined) input = d.input;
      ask ??= d.ask;
      if (d.context) context.push(d.context);
    }
    return {
      ...(input !== call.input ? { input } : {}),
      ...(ask ? { ask } : {}),
      ...(context.length ? { context: context.join('\n') } : {}),
    };
  };
}
