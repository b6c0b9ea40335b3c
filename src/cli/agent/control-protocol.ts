/**
 * The stream-json control protocol as the Claude Agent SDK speaks it on stdin/stdout: the SDK sends
 * `control_request` lines (initialize, interrupt, set_permission_mode, set_model, mcp_status, …) and expects
 * one `control_response` with the same `request_id` each; we send `control_request`s too (`can_use_tool`)
 * and read the SDK's `control_response`. Every line is validated here, at the boundary.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

export const ControlRequestLine = z
  .object({
    type: z.literal('control_request'),
    request_id: z.string().min(1).max(200),
    request: z.object({ subtype: z.string().min(1).max(100) }).loose(),
  })
  .loose();

export const ControlResponseLine = z
  .object({
    type: z.literal('control_response'),
    response: z.discriminatedUnion('subtype', [
      z.object({ subtype: z.literal('success'), request_id: z.string(), response: z.record(z.string(), z.unknown()).optional() }).loose(),
      z.object({ subtype: z.literal('error'), request_id: z.string(), error: z.string() }).loose(),
    ]),
  })
  .loose();

export const ControlCancelLine = z.object({ type: z.literal('control_cancel_request'), request_id: z.string() }).loose();

/**
 * `initialize`'s fields we act on. Others are refused by name when they would change what the session does
 * (REFUSED_INITIALIZE_FIELDS), ignored when they only shape what a host displays (IGNORED_INITIALIZE_FIELDS),
 * and named on stderr when we do not know them: never dropped silently (each listed in docs/agent.md).
 */
export const InitializeRequest = z
  .object({
    subtype: z.literal('initialize'),
    appendSystemPrompt: z.string().max(1_000_000).optional(),
    /** The SDK sends a string array (`[""]` when the caller set none). */
    systemPrompt: z.union([z.string().max(1_000_000), z.array(z.string().max(1_000_000)).max(100)]).optional(),
    hooks: z.record(z.string(), z.array(z.object({ matcher: z.string().optional(), hookCallbackIds: z.array(z.string()) }).loose())).optional(),
    /** The SDK's `mcpServers` (stdio, http, sse), checked in mcp/config.ts. */
    mcpServers: z.record(z.string(), z.unknown()).optional(),
    /** In-process servers (`createSdkMcpServer`): names the SDK would proxy over `mcp_message`. */
    sdkMcpServers: z.array(z.string()).optional(),
    /** The SDK's JSON-schema output format (structured output): refused. */
    jsonSchema: z.unknown().optional(),
  })
  .loose();

/** Fields whose effect thclaws cannot give: an initialize carrying one (non-empty) is refused, naming it. */
export const REFUSED_INITIALIZE_FIELDS: Readonly<Record<string, string>> = {
  agents: 'custom subagents (the agents option) are not supported by thclaws; define teammates in .thclaws/agents/ instead',
  toolAliases: 'tool aliases are not supported by thclaws',
  planModeInstructions: 'custom plan-mode instructions are not supported by thclaws',
  appendSubagentSystemPrompt: 'subagent prompts are not supported by thclaws (no subagents)',
  plugins: 'plugins are not supported by thclaws',
  managedSettings: 'managed settings are not supported by thclaws',
  settings: 'settings passed by the SDK are not supported by thclaws; use .thclaws/settings.json',
  disallowedTools: 'disallowedTools inside initialize are not supported by thclaws; pass them as the disallowedTools option (a flag)',
  codeRunningMcpTools: 'codeRunningMcpTools is not supported by thclaws',
};

/** Fields that change only what a host shows or how it caches: no effect here, safely ignored. */
export const IGNORED_INITIALIZE_FIELDS = new Set([
  'subtype', 'hooks', 'sdkMcpServers', 'sdkMcpServerConfigs', 'sdkMcpServerManifests', 'sdkMcpServerManifestsOrigin', 'jsonSchema',
  'systemPrompt', 'appendSystemPrompt', 'mcpServers', 'systemPromptSnapshot', 'excludeDynamicSections', 'title', 'skills',
  'webSearchIsolationExemptMcpServers', 'promptSuggestions', 'agentProgressSummaries', 'forwardSubagentText', 'supportedDialogKinds',
  'perTaskStopAffordance', 'rapidFollowupPreempt', 'forwardNestedSubagentToolCalls', 'offersBypassSwitchBack', 'keepsBypassHeld',
  'workspaceTrust',
]);

/** A value that asks for nothing: absent, null, false, an empty list or object. */
export function isEmptyValue(v: unknown): boolean {
  if (v === undefined || v === null || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

export type ControlRequestLine = z.infer<typeof ControlRequestLine>;
export type ControlResponseLine = z.infer<typeof ControlResponseLine>;

export type Writer = (obj: unknown) => void;

export function successResponse(requestId: string, response: Record<string, unknown> = {}) {
  return { type: 'control_response', response: { subtype: 'success', request_id: requestId, response } } as const;
}

export function errorResponse(requestId: string, error: string) {
  return { type: 'control_response', response: { subtype: 'error', request_id: requestId, error } } as const;
}

/** Our own requests to the SDK (can_use_tool, hook_callback): one pending promise per request id. */
export class OutgoingRequests {
  private readonly pending = new Map<string, { resolve(v: Record<string, unknown>): void; reject(e: Error): void }>();
  /** Requests we cancelled: the SDK still answers them (its callback returns after the abort), and that is no error. */
  private readonly cancelled = new Set<string>();
  /** Set once stdin closed: a request sent after that could never be answered. */
  private closedReason: string | undefined;

  constructor(private readonly write: Writer) {}

  send(request: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const requestId = `thclaws_${randomBytes(8).toString('hex')}`;
    return new Promise((resolve, reject) => {
      if (this.closedReason !== undefined) return reject(new Error(this.closedReason));
      const onAbort = () => {
        this.pending.delete(requestId);
        this.cancelled.add(requestId);
        this.write({ type: 'control_cancel_request', request_id: requestId });
        reject(new Error('aborted'));
      };
      // Aborted before it was sent: nothing to cancel on the other side.
      if (signal?.aborted) return reject(new Error('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(requestId, {
        resolve: (v) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(v);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      this.write({ type: 'control_request', request_id: requestId, request });
    });
  }

  /** A `control_response` from the SDK; false when it answers nothing we asked. */
  settle(line: ControlResponseLine): boolean {
    const r = line.response;
    const waiter = this.pending.get(r.request_id);
    if (!waiter) return this.cancelled.delete(r.request_id);
    this.pending.delete(r.request_id);
    if (r.subtype === 'success') waiter.resolve((r as { response?: Record<string, unknown> }).response ?? {});
    else waiter.reject(new Error((r as { error: string }).error));
    return true;
  }

  /** stdin closed: nobody will answer. */
  failAll(reason: string): void {
    this.closedReason = reason;
    for (const [, w] of this.pending) w.reject(new Error(reason));
    this.pending.clear();
  }
}
