/**
 * Compile-time conformance (checked by `npm run typecheck`, not run by vitest): every message shape thclaws
 * prints in stream-json — the types its builders in src/cli/agent/claude-json.ts return — must be assignable to
 * the Agent SDK's exported message types. A field the SDK requires and we drop, or a value outside the SDK's
 * union, fails `tsc` here. Type-only imports: nothing of the SDK reaches src/ at runtime.
 */
import type {
  SDKAPIRetryMessage,
  SDKAssistantMessage,
  SDKMessage,
  SDKPartialAssistantMessage,
  SDKResultMessage,
  SDKSystemMessage,
  SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import type { z } from 'zod';
import type {
  AssistantMessage,
  ResultMessage,
  StreamEventMessage,
  StreamJsonLine,
  SystemInitMessage,
  SystemRetryMessage,
  UserMessage,
} from '../../src/core/agent/output-schema.js';
import type { ClaudeJsonTurn } from '../../src/cli/agent/claude-json.js';

/** Compiles only when A is assignable to B. */
type Assignable<A extends B, B> = A;

// Conformant: each must compile.
export type Conformant = [
  Assignable<z.infer<typeof SystemInitMessage>, SDKSystemMessage>,
  Assignable<z.infer<typeof UserMessage>, SDKUserMessage>,
  // The builder returns that shape (not a wider type that would escape the check above).
  Assignable<ReturnType<typeof ClaudeJsonTurn.init>, SDKSystemMessage>,
];

// Known gaps, each a compile error today (docs/agent.md lists them). When one is fixed, its
// expect-error directive becomes unused and tsc fails: move the line up to Conformant.
// api_retry: no `error_status`; `error` is free text, not the SDK's error category union.
// @ts-expect-error known gap
export type RetryGap = Assignable<z.infer<typeof SystemRetryMessage>, SDKAPIRetryMessage>;
// assistant: BetaMessage's `container`, `context_management`, `diagnostics`, `stop_details` are absent.
// @ts-expect-error known gap
export type AssistantGap = Assignable<AssistantMessage, SDKAssistantMessage>;
// result: one object for success and errors, where the SDK has SDKResultSuccess | SDKResultError by subtype.
// @ts-expect-error known gap
export type ResultGap = Assignable<ResultMessage, SDKResultMessage>;
// @ts-expect-error known gap (the same, from the builder)
export type ResultBuilderGap = Assignable<ReturnType<ClaudeJsonTurn['result']>, SDKResultMessage>;
// stream_event: the event is typed loosely ({type, ...}), not as BetaRawMessageStreamEvent.
// @ts-expect-error known gap
export type StreamEventGap = Assignable<z.infer<typeof StreamEventMessage>, SDKPartialAssistantMessage>;
// Hence not every line is typed as an SDKMessage yet.
// @ts-expect-error known gap
export type LineGap = Assignable<StreamJsonLine, SDKMessage>;
