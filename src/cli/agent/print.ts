/**
 * `thclaws -p`: one prompt to completion (or, with `--input-format stream-json`, one turn per user message
 * on stdin); text, json or stream-json on stdout in the shapes of Claude Code's `claude -p`.
 */
import type { PromptResult } from '../../core/agent/agent.js';
import type { LoopEvents } from '../../core/agent/loop.js';
import type { StreamJsonLine } from '../../core/agent/output-schema.js';
import type { PromptBlock } from '../../core/agent/providers/types.js';
import { PLAN_REFUSAL_PREFIX } from '../../core/agent/permissions.js';
import { ClaudeJsonTurn } from './claude-json.js';
import { TurnRenderer, painter } from './render.js';
import type { Runtime } from './setup.js';

export { usageJson } from './claude-json.js';

export interface PrintOptions {
  format: 'text' | 'json' | 'stream-json';
  verbose?: boolean;
  /** `--include-partial-messages`: `stream_event` lines with the API's raw stream events (stream-json only). */
  includePartial?: boolean;
}

/**
 * 0 = done, 1 = failed (provider error, truncation, refusal, iteration budget, or a turn whose every tool
 * call failed), 130 = interrupted.
 */
export function exitCodeOf(r: PromptResult, tools?: ToolTally): number {
  if (r.stop === 'end_turn') return tools && allToolsFailed(tools) ? 1 : 0;
  return r.stop === 'aborted' ? 130 : 1;
}

/** The turn's tool calls: how many, how many failed, and the last failure (one line). */
export interface ToolTally {
  calls: number;
  failed: number;
  last?: string;
}

/** A turn that called tools and had every one refused or fail achieved nothing, whatever its final text says. */
function allToolsFailed(t: ToolTally): boolean {
  return t.calls > 0 && t.failed === t.calls;
}

function allFailedLine(t: ToolTally): string {
  return `every tool call failed (${t.failed} of ${t.calls}); the last: ${t.last ?? '?'}`;
}

function countTools(events: LoopEvents, tally: ToolTally): LoopEvents {
  const inner = events.onToolResult;
  return {
    ...events,
    onToolResult: (r) => {
      // Plan mode refusing a change is the mode at work (the model should explore, then plan): no failure. Nor
      // is the client's own refusal (canUseTool, a PreToolUse hook): Claude Code ends that turn as a success.
      if (r.deniedByClient || r.content.startsWith(`permission denied: ${PLAN_REFUSAL_PREFIX}`)) return inner?.(r);
      tally.calls++;
      if (r.isError) {
        tally.failed++;
        tally.last = `${r.name}: ${r.content.split('\n')[0]!.slice(0, 300)}`;
      }
      inner?.(r);
    },
  };
}

const write = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);

/** Runs one prompt with the output of `opts.format`; returns the result and the exit code it stands for. */
export async function runTurn(
  rt: Runtime,
  prompt: string | PromptBlock[],
  opts: PrintOptions,
  signal: AbortSignal,
  all: StreamJsonLine[],
  /** As Claude Code with streamed input: a system/init line opens every turn. */
  turnOpts: { initEachTurn?: boolean } = {},
): Promise<{ result: PromptResult; code: number }> {
  const { agent } = rt;
  const emit = (m: StreamJsonLine) => (opts.format === 'stream-json' ? write(m) : all.push(m));
  if (turnOpts.initEachTurn) emit(ClaudeJsonTurn.init(rt));
  const turn = new ClaudeJsonTurn(rt, emit, opts.format === 'stream-json');
  let events: LoopEvents;
  if (opts.format === 'text') {
    const renderer = new TurnRenderer((s) => process.stderr.write(s), painter(false), { full: true });
    const onModelFallback: LoopEvents['onModelFallback'] = (f) => process.stderr.write(`thclaws: ${f.from} ${f.trigger === 'model_not_found' ? 'is not available' : 'is overloaded'}: this turn goes on with ${f.to}\n`);
    events = opts.verbose
      ? { ...renderer.events(), onText: undefined }
      : { onRetry: (i) => process.stderr.write(`thclaws: retry ${i.attempt} in ${(i.delayMs / 1000).toFixed(1)} s: ${i.reason}\n`), onModelFallback };
  } else {
    events = turn.events(opts.format === 'stream-json' && !!opts.includePartial);
  }
  const tools: ToolTally = { calls: 0, failed: 0 };
  const result = await agent.prompt(prompt, signal, countTools(events, tools));
  let summary = turn.result(result);
  if (result.stop === 'end_turn' && allToolsFailed(tools)) {
    summary = { ...summary, is_error: true, subtype: 'error_during_execution', errors: [allFailedLine(tools)] };
  }
  if (opts.format === 'stream-json') write(summary);
  else if (opts.format === 'json') write(opts.verbose ? [...all, summary] : summary);
  else {
    if (result.text) process.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    if (summary.subtype !== 'success') process.stderr.write(`thclaws: ${summary.errors[0]}\n`);
  }
  return { result, code: exitCodeOf(result, tools) };
}

function withSignals<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  // A closed terminal (SIGHUP) ends the turn like Ctrl-C: the result is written, background shells die at exit.
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  return fn(controller.signal).finally(() => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
  });
}

export async function runPrint(rt: Runtime, prompt: string, opts: PrintOptions): Promise<number> {
  const all: StreamJsonLine[] = [ClaudeJsonTurn.init(rt)];
  if (opts.format === 'stream-json') write(all[0]);
  return withSignals(async (signal) => (await runTurn(rt, prompt, opts, signal, all)).code);
}
