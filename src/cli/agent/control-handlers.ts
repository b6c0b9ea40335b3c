/**
 * Answers to the SDK's control requests. Each returns one `control_response` line; an unknown subtype or a
 * request we cannot honour gets an error response naming it (never silence, never an exit).
 */
import type { PermissionMode } from '../../core/agent/permissions.js';
import { knownModels, modelInfo, resolveModelAlias } from '../../contract/models.js';
import { errorResponse, IGNORED_INITIALIZE_FIELDS, InitializeRequest, isEmptyValue, REFUSED_INITIALIZE_FIELDS, successResponse, type ControlRequestLine, type OutgoingRequests } from './control-protocol.js';
import { addSdkServers } from './mcp-setup.js';
import { installPreToolUse, SUPPORTED_SDK_HOOKS } from './sdk-hooks.js';
import { outputSchema, type Runtime } from './setup.js';
import { CliError } from '../errors.js';

export interface SessionControl {
  rt: Runtime;
  out: OutgoingRequests;
  /** Aborts the running turn; false between turns (nothing to interrupt). */
  interrupt(): boolean;
  /** Set when the running turn was ended by an `interrupt` request rather than a signal. */
  interrupted?: boolean;
  /** Set by the first `initialize`: a second would install its hooks and append its prompt again. */
  initialized?: boolean;
  /** The running `initialize` (it connects MCP servers): turns wait for it. */
  initializing?: Promise<unknown>;
  /** Why the session's `initialize` was refused: each prompt then ends in an error result saying so. */
  refused?: string;
}

/** SDK permission modes → ours (`default` is our `ask`, `bypassPermissions` our `auto`). */
export function mapPermissionMode(mode: string): PermissionMode | { refused: string } {
  if (mode === 'default') return 'ask';
  if (mode === 'bypassPermissions') return 'auto';
  if (mode === 'ask' || mode === 'auto' || mode === 'acceptEdits' || mode === 'plan') return mode;
  return { refused: `permission mode "${mode}" is not supported by thclaws (supported: default, acceptEdits, bypassPermissions, plan)` };
}

async function initializeResponse(c: SessionControl, raw: unknown): Promise<Record<string, unknown> | string> {
  const parsed = InitializeRequest.safeParse(raw);
  if (!parsed.success) return `initialize: ${parsed.error.issues[0]?.message ?? 'invalid request'}`;
  const req = parsed.data;
  const fields = Object.entries(raw as Record<string, unknown>);
  const refused = fields.filter(([k, v]) => Object.hasOwn(REFUSED_INITIALIZE_FIELDS, k) && !isEmptyValue(v));
  if (refused.length) {
    const msg = `initialize: ${refused.map(([k]) => `${k}: ${REFUSED_INITIALIZE_FIELDS[k]}`).join('; ')}`;
    process.stderr.write(`thclaws: ${msg}\n`);
    return msg;
  }
  const unknown = fields.filter(([k, v]) => !IGNORED_INITIALIZE_FIELDS.has(k) && !Object.hasOwn(REFUSED_INITIALIZE_FIELDS, k) && !isEmptyValue(v)).map(([k]) => k);
  if (unknown.length) process.stderr.write(`thclaws: initialize: ignoring fields thclaws does not know: ${unknown.join(', ')}\n`);
  const hooks = Object.entries(req.hooks ?? {}).filter(([, m]) => m.length);
  const unsupported = hooks.map(([event]) => event).filter((e) => !(SUPPORTED_SDK_HOOKS as readonly string[]).includes(e));
  if (unsupported.length) {
    const msg = `initialize: SDK hook callbacks for ${unsupported.join(', ')} are not supported by thclaws (supported: ${SUPPORTED_SDK_HOOKS.join(', ')}); they would never fire`;
    process.stderr.write(`thclaws: ${msg}\n`);
    return msg;
  }
  if (req.jsonSchema !== undefined && req.jsonSchema !== null) {
    // The SDK sends the schema of its outputFormat here as well as in --json-schema.
    try {
      c.rt.agent.setOutputSchema(await outputSchema(req.jsonSchema, 'initialize: jsonSchema'));
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      process.stderr.write(`thclaws: ${err.message}\n`);
      return err.message;
    }
  }
  if (req.sdkMcpServers?.length) {
    const msg = `initialize: in-process SDK MCP servers (createSdkMcpServer: ${req.sdkMcpServers.join(', ')}) are not supported by thclaws; give the server as a stdio or http server instead`;
    process.stderr.write(`thclaws: ${msg}\n`);
    return msg;
  }
  const sdkServers = Object.keys(req.mcpServers ?? {}).length > 0;
  if (sdkServers) {
    const err = await addSdkServers(c.rt.mcp, c.rt.info, c.rt.agent.tools, req.mcpServers, c.rt.disallowedTools);
    if (err) return err;
  }
  for (const [, matchers] of hooks) installPreToolUse(c.rt, c.out, matchers);
  // A custom prompt replaces ours; none (the SDK's `[""]`) keeps ours, which carries the tools' rules.
  const custom = [req.systemPrompt ?? []].flat().join('\n').trim();
  if (custom) c.rt.agent.replaceSystemPrompt(custom);
  if (req.appendSystemPrompt) c.rt.agent.appendSystemPrompt(req.appendSystemPrompt);
  return {
    commands: [],
    agents: [],
    output_style: 'default',
    available_output_styles: ['default'],
    models: knownModels().map((id) => ({ value: id, displayName: id, description: `context ${modelInfo(id)?.contextWindow ?? '?'} tokens` })),
    account: {},
    pid: process.pid,
    ...(hooks.length ? { hooks_applied: true } : {}),
    // The SDK ends the session unless a CLI reading its servers from here says whether it applied them.
    ...(req.mcpServers !== undefined ? { mcp_servers_applied: true } : {}),
    mcp_servers: c.rt.mcp.status().map((s) => ({ name: s.name, status: s.status })),
  };
}

export async function handleControlRequest(c: SessionControl, line: ControlRequestLine): Promise<unknown> {
  const id = line.request_id;
  const req = line.request as Record<string, unknown> & { subtype: string };
  switch (req.subtype) {
    case 'initialize': {
      if (c.initialized || c.initializing) return errorResponse(id, 'already initialized: initialize is sent once per session');
      const running = initializeResponse(c, req);
      c.initializing = running;
      const r = await running;
      if (typeof r !== 'string') c.initialized = true;
      // The SDK goes on after an error response: the refusal must reach the host in each turn's result too.
      else c.refused = r;
      return typeof r === 'string' ? errorResponse(id, r) : successResponse(id, r);
    }
    case 'interrupt':
      // Only a running turn is marked: a stray interrupt between turns must not make the next turn's signal
      // look like an interrupt (the session would then outlive its SIGTERM).
      if (c.interrupt()) c.interrupted = true;
      return successResponse(id);
    case 'set_permission_mode': {
      const mode = mapPermissionMode(String(req.mode ?? ''));
      if (typeof mode === 'object') return errorResponse(id, mode.refused);
      c.rt.permissions.setMode(mode);
      c.rt.mode = mode;
      return successResponse(id);
    }
    case 'set_model': {
      const wanted = typeof req.model === 'string' && req.model ? resolveModelAlias(req.model) : undefined;
      if (wanted && !modelInfo(wanted)) {
        // A provider profile's model need not be listed in the profile (as with --model): its server decides.
        let viaProfile = false;
        try {
          viaProfile = c.rt.agent.providerOf(wanted).name === 'openai-compatible';
        } catch (err) {
          return errorResponse(id, (err as Error).message);
        }
        if (!viaProfile) return errorResponse(id, `unknown model "${req.model}"; known: ${knownModels().join(', ')}`);
      }
      c.rt.agent.model = wanted ?? c.rt.agent.defaultModel;
      return successResponse(id);
    }
    case 'set_max_thinking_tokens': {
      // null: back to the session's start; 0: off; N: a budget (adaptive models take it as on).
      const n = req.max_thinking_tokens;
      if (n === null) c.rt.agent.thinking = c.rt.startThinking;
      else if (typeof n === 'number' && Number.isInteger(n) && n >= 0) c.rt.agent.thinking = n === 0 ? { type: 'disabled' } : { type: 'enabled', budgetTokens: n };
      else if (n !== undefined) return errorResponse(id, `max_thinking_tokens must be a whole number of tokens or null, got ${JSON.stringify(n)}`);
      return successResponse(id);
    }
    case 'mcp_status':
      // Servers from a running `initialize` are reported once they have connected (or failed).
      await c.initializing;
      return successResponse(id, { mcpServers: c.rt.mcp.status() });
    default:
      return errorResponse(id, `unsupported control request "${req.subtype}"`);
  }
}
