/**
 * `--permission-prompt-tool stdio`: every permission question goes to the SDK's `canUseTool` callback as a
 * `can_use_tool` control request. Its answer (the SDK's `PermissionResult`) allows, optionally with an
 * `updatedInput` the tool re-validates and the guards re-check, and `updatedPermissions` applied as they say
 * (permission-updates.ts); or denies with a message, and with `interrupt: true` also ends the turn.
 */
import { z } from 'zod';
import type { Approver, ApproverAnswer, PermissionRequest } from '../../core/agent/types.js';
import type { OutgoingRequests } from './control-protocol.js';
import { applyPermissionUpdates, PermissionUpdate, ruleValue, type PermissionTarget } from './permission-updates.js';

export const CanUseToolAnswer = z.discriminatedUnion('behavior', [
  z.object({ behavior: z.literal('allow'), updatedInput: z.record(z.string(), z.unknown()).optional(), updatedPermissions: z.array(PermissionUpdate).optional() }).loose(),
  z.object({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }).loose(),
]);

export interface SdkApproverDeps {
  out: OutgoingRequests;
  /** The session's permissions, for `updatedPermissions`. */
  target: PermissionTarget & { currentMode: string };
  /** Ends the running turn (a deny with `interrupt: true`). */
  interrupt(): void;
  /** One line on stderr for a part of an answer not applied. */
  warn(line: string): void;
}

export class SdkApprover implements Approver {
  constructor(private readonly d: SdkApproverDeps) {}

  async decide(req: PermissionRequest, signal: AbortSignal): Promise<ApproverAnswer> {
    const modeBefore = this.d.target.currentMode;
    const raw = await this.d.out.send(
      {
        subtype: 'can_use_tool',
        tool_name: req.tool,
        input: req.input,
        tool_use_id: req.toolUseId ?? '',
        // A call an ask rule or a protected path covers asks every time: no rule to suggest.
        ...(req.scope && !req.askRule ? { permission_suggestions: [{ type: 'addRules', rules: [ruleValue(req.scope)], behavior: 'allow', destination: 'session' }] } : {}),
        ...(req.hookAsk ? { decision_reason: req.hookAsk } : req.askRule ? { decision_reason: `the rule ${req.askRule} asks each time` } : {}),
        description: req.summary,
      },
      signal,
    );
    const parsed = CanUseToolAnswer.safeParse(raw);
    if (!parsed.success) return { deny: `the SDK's canUseTool answer is not valid: ${parsed.error.issues[0]?.message ?? 'unknown shape'}` };
    const a = parsed.data;
    if (a.behavior === 'deny') {
      if (a.interrupt) this.d.interrupt();
      return { deny: a.message || 'denied by the SDK host (canUseTool)', deniedByClient: true };
    }
    // The session entered plan mode while this call waited: the mode decides, not the older question.
    if (this.d.target.currentMode === 'plan' && modeBefore !== 'plan' && req.tool !== 'ExitPlanMode') {
      return { deny: `the session switched to plan mode while ${req.tool} waited for approval; it was not run` };
    }
    for (const note of await applyPermissionUpdates(a.updatedPermissions ?? [], this.d.target)) this.d.warn(`canUseTool updatedPermissions: ${note}`);
    if (a.updatedInput && JSON.stringify(a.updatedInput) !== JSON.stringify(req.input)) return { allow: a.updatedInput };
    return 'allow';
  }
}
