/**
 * `--permission-prompt-tool stdio`: every permission question goes to the SDK's `canUseTool` callback as a
 * `can_use_tool` control request; its answer allows (optionally with an `updatedInput` the tool re-validates
 * and the guards re-check), denies with a message, or allows and stores the suggested rules ("always").
 */
import { z } from 'zod';
import type { Approver, ApproverAnswer, PermissionRequest } from '../../core/agent/types.js';
import type { OutgoingRequests } from './control-protocol.js';

const CanUseToolAnswer = z.discriminatedUnion('behavior', [
  z.object({ behavior: z.literal('allow'), updatedInput: z.record(z.string(), z.unknown()).optional(), updatedPermissions: z.array(z.unknown()).optional() }).loose(),
  z.object({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }).loose(),
]);

export class SdkApprover implements Approver {
  constructor(private readonly out: OutgoingRequests) {}

  async decide(req: PermissionRequest, signal: AbortSignal): Promise<ApproverAnswer> {
    const raw = await this.out.send(
      {
        subtype: 'can_use_tool',
        tool_name: req.tool,
        input: req.input,
        tool_use_id: req.toolUseId ?? '',
        ...(req.scope ? { permission_suggestions: [{ type: 'addRules', rules: [{ toolName: req.tool, ruleContent: req.scope }], behavior: 'allow', destination: 'session' }] } : {}),
        description: req.summary,
      },
      signal,
    );
    const parsed = CanUseToolAnswer.safeParse(raw);
    if (!parsed.success) return { deny: `the SDK's canUseTool answer is not valid: ${parsed.error.issues[0]?.message ?? 'unknown shape'}` };
    const a = parsed.data;
    if (a.behavior === 'deny') return { deny: a.message || 'denied by the SDK host (canUseTool)' };
    if (a.updatedInput && JSON.stringify(a.updatedInput) !== JSON.stringify(req.input)) return { allow: a.updatedInput };
    if (a.updatedPermissions?.length) return 'always';
    return 'allow';
  }
}
