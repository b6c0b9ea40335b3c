/**
 * Compile-time conformance (checked by `npm run typecheck`, not run by vitest): every message shape thclaws
 * prints in stream-json — the types its builders in src/cli/agent/claude-json.ts return — must be assignable to
 * the Agent SDK's exported message types. A field the SDK requires and we drop, or a value outside the SDK's
 * union, fails `tsc` here. One line is left out on purpose: `system`/`model_fallback`, which Claude Code prints and the
 * SDK passes through although its exported types do not declare it. Type-only imports: nothing of the SDK reaches src/ at runtime.
 */
import type {
  NonNullableUsage,
  PermissionResult,
  PermissionUpdate as SdkPermissionUpdate,
  PreToolUseHookSpecificOutput,
  SyncHookJSONOutput,
  SDKAPIRetryMessage,
  SDKControlResponse,
  SDKAssistantMessage,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKResultError,
  SDKResultMessage,
  SDKResultSuccess,
  SDKSystemMessage,
  SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import type { z } from 'zod';
import type {
  AssistantMessage,
  ModelFallbackMessage,
  ResultError,
  ResultMessage,
  ResultSuccess,
  StreamEventMessage,
  StreamJsonLine,
  SystemInitMessage,
  SystemRetryMessage,
  UserMessage,
} from '../../src/core/agent/output-schema.js';
import type { ClaudeJsonTurn, usageJson } from '../../src/cli/agent/claude-json.js';
import type { errorResponse, successResponse } from '../../src/cli/agent/control-protocol.js';
import type { CanUseToolAnswer } from '../../src/cli/agent/sdk-approver.js';
import type { PermissionUpdate } from '../../src/cli/agent/permission-updates.js';
import type { HookAnswer } from '../../src/cli/agent/sdk-hooks.js';

/** Compiles only when A is assignable to B. */
type Assignable<A extends B, B> = A;

// Conformant: each must compile.
export type Conformant = [
  Assignable<z.infer<typeof SystemInitMessage>, SDKSystemMessage>,
  Assignable<z.infer<typeof UserMessage>, SDKUserMessage>,
  Assignable<z.infer<typeof SystemRetryMessage>, SDKAPIRetryMessage>,
  Assignable<AssistantMessage, SDKAssistantMessage>,
  Assignable<z.infer<typeof ResultSuccess>, SDKResultSuccess>,
  Assignable<z.infer<typeof ResultError>, SDKResultError>,
  Assignable<ResultMessage, SDKResultMessage>,
  Assignable<z.infer<typeof StreamEventMessage>, SDKPartialAssistantMessage>,
  Assignable<Exclude<StreamJsonLine, z.infer<typeof ModelFallbackMessage>>, SDKMessage>,
  Assignable<ReturnType<typeof successResponse>, SDKControlResponse>,
  Assignable<ReturnType<typeof errorResponse>, SDKControlResponse>,
  // The builders return those shapes (not a wider type that would escape the checks above).
  Assignable<ReturnType<typeof ClaudeJsonTurn.init>, SDKSystemMessage>,
  Assignable<ReturnType<ClaudeJsonTurn['result']>, SDKResultMessage>,
  Assignable<ReturnType<typeof usageJson>, NonNullableUsage>,
  // What the SDK sends us: every answer its types allow is one our schemas take (none refused for its shape).
  Assignable<SdkPermissionUpdate, z.input<typeof PermissionUpdate>>,
  Assignable<PermissionResult, z.input<typeof CanUseToolAnswer>>,
  Assignable<Omit<SyncHookJSONOutput, 'hookSpecificOutput'> & { hookSpecificOutput?: PreToolUseHookSpecificOutput }, z.input<typeof HookAnswer>>,
];
