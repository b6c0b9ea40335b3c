/**
 * One tool call: validate → preflight (sandbox, role guard; once) → permission → run. Read-only tools of
 * one assistant turn run concurrently; results always come back in request order.
 */
import { z } from 'zod';
import { describeIssues } from '../../contract/store-schemas.js';
import type { LoopEvents } from './loop.js';
import type { ToolSpec, ToolUseBlock } from './providers/types.js';
import type { Tool, ToolContext, ToolResult } from './types.js';

const specCache = new WeakMap<Tool<any>, ToolSpec>();

export function toolSpec(tool: Tool<any>): ToolSpec {
  let spec = specCache.get(tool);
  if (!spec) {
    const { $schema: _ignored, ...schema } = tool.inputJsonSchema ?? (z.toJSONSchema(tool.inputSchema as z.ZodType, { io: 'input' }) as Record<string, unknown>);
    spec = { name: tool.name, description: tool.description, input_schema: schema };
    specCache.set(tool, spec);
  }
  return spec;
}

/** Keeps the head and the tail (errors and exit codes are at the end) with a line saying how much was cut. */
export function capOutput(text: string, max: number): string {
  if (text.length <= max) return text;
  const headLen = Math.floor(max * 0.4);
  const tailLen = max - headLen;
  const cut = text.length - headLen - tailLen;
  return `${text.slice(0, headLen)}\n[... ${cut} characters cut from the middle of this output ...]\n${text.slice(text.length - tailLen)}`;
}

/** Zod's issues as a model reads them in a refused call. */
const issuesOf = (err: z.ZodError): string => describeIssues(err, { max: 5, quote: true, whole: '(input)' });

/** A call written with a tool's old field names, renamed to the current ones (never over a current one). */
export function withCurrentFields(tool: Tool<any>, input: unknown): unknown {
  if (!tool.legacyFields || !input || typeof input !== 'object' || Array.isArray(input)) return input;
  let out: Record<string, unknown> | undefined;
  for (const [old, now] of Object.entries(tool.legacyFields)) {
    const src = out ?? (input as Record<string, unknown>);
    if (Object.hasOwn(src, old) && !Object.hasOwn(src, now)) {
      out ??= { ...(input as Record<string, unknown>) };
      out[now] = out[old];
      delete out[old];
    }
  }
  return out ?? input;
}

/** Runs one tool call; never throws (a failure is a tool error the model reads). */
export async function runToolCall(call: ToolUseBlock, tools: Tool<any>[], callerCtx: ToolContext, events?: LoopEvents): Promise<ToolResult> {
  const onToolOutput = events?.onToolOutput;
  const ctx = onToolOutput ? { ...callerCtx, onOutput: (chunk: string) => onToolOutput({ id: call.id, chunk }) } : callerCtx;
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return { content: `unknown tool "${call.name}"; available: ${tools.map((t) => t.name).join(', ')}`, isError: true };
  const parsed = tool.inputSchema.safeParse(withCurrentFields(tool, call.input));
  if (!parsed.success) {
    events?.onToolCall?.({ id: call.id, name: call.name, input: call.input, summary: '(invalid input)' });
    return { content: `invalid input for ${tool.name}: ${issuesOf(parsed.error as z.ZodError)}`, isError: true };
  }
  let input = parsed.data;
  let summary = tool.summarize?.(input, ctx) ?? JSON.stringify(input).slice(0, 200);
  events?.onToolCall?.({ id: call.id, name: tool.name, input, summary });
  try {
    const hook = await ctx.beforeTool?.({ tool: tool.name, input, toolUseId: call.id }, ctx.signal);
    if (hook?.deny !== undefined) return { content: hook.deny, isError: true, ...(hook.deniedByClient ? { deniedByClient: true } : {}) };
    // A hook's changed input passes the same schema, guards and permission check as the model's own.
    if (hook?.input !== undefined) {
      const changed = tool.inputSchema.safeParse(withCurrentFields(tool, hook.input));
      if (!changed.success) return { content: `invalid input from a PreToolUse hook for ${tool.name}: ${issuesOf(changed.error as z.ZodError)}`, isError: true };
      input = changed.data;
      summary = tool.summarize?.(input, ctx) ?? JSON.stringify(input).slice(0, 200);
    }
    const result = await guardedRun(tool, input, summary, call.id, ctx, hook?.ask);
    return hook?.context ? withContext(result, hook.context) : result;
  } catch (err) {
    return { content: `${tool.name} failed: ${err instanceof Error ? err.message : String(err)}`, isError: true };
  }
}

/** A hook's `additionalContext`, for the model beside the tool's own result. */
function withContext(r: ToolResult, context: string): ToolResult {
  const note = `[PreToolUse hook context: ${context}]`;
  return r.blocks ? { ...r, blocks: [...r.blocks, { type: 'text', text: note }] } : { ...r, content: `${r.content}\n\n${note}` };
}

/** preflight (sandbox, role guard) → permission → run. */
async function guardedRun(tool: Tool<any>, input: unknown, summary: string, toolUseId: string, ctx: ToolContext, hookAsk: string | undefined): Promise<ToolResult> {
  const refused = await tool.preflight?.(input, ctx);
  if (refused) return refused;
  const req = { tool: tool.name, input, summary, agentName: ctx.agentName, toolUseId, ...(hookAsk ? { hookAsk } : {}) };
  if (tool.needsPermission || hookAsk || ctx.permissions.restricts?.(req)) {
    const decision = await ctx.permissions.check(req, ctx.signal);
    if (!decision.allowed) return { content: `permission denied: ${decision.reason}`, isError: true, ...(decision.deniedByClient ? { deniedByClient: true } : {}) };
    // An approver's changed input passes the same schema and guards as the model's own.
    if (decision.input !== undefined) {
      const changed = tool.inputSchema.safeParse(withCurrentFields(tool, decision.input));
      if (!changed.success) return { content: `invalid input from the approver for ${tool.name}: ${issuesOf(changed.error as z.ZodError)}`, isError: true };
      const denied = ctx.permissions.denial?.({ ...req, input: changed.data });
      if (denied) return { content: `permission denied: ${denied}`, isError: true };
      const refusedChanged = await tool.preflight?.(changed.data, ctx);
      if (refusedChanged) return refusedChanged;
      return await tool.run(changed.data, ctx);
    }
  }
  return await tool.run(input, ctx);
}

const NOT_RUN: ToolResult = { content: 'not run: aborted by the user', isError: true };

/** Runs the calls of one assistant turn: consecutive read-only calls together, the others one at a time. */
export async function runToolBatch(
  calls: ToolUseBlock[],
  tools: Tool<any>[],
  ctx: ToolContext,
  events: LoopEvents | undefined,
  /** Called in request order as each group finishes. */
  onResult: (call: ToolUseBlock, result: ToolResult) => void,
): Promise<ToolResult[]> {
  const readOnly = (c: ToolUseBlock) => tools.find((t) => t.name === c.name)?.readOnly === true;
  const results: ToolResult[] = [];
  for (let i = 0; i < calls.length; ) {
    let j = i + 1;
    if (readOnly(calls[i]!)) while (j < calls.length && readOnly(calls[j]!)) j++;
    const group = calls.slice(i, j);
    const done = await Promise.all(group.map((c) => (ctx.signal.aborted ? NOT_RUN : runToolCall(c, tools, ctx, events))));
    done.forEach((r, k) => onResult(group[k]!, r));
    results.push(...done);
    i = j;
  }
  return results;
}
