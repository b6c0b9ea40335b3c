/**
 * `thclaws -p`: one prompt to completion (or, with `--input-format stream-json`, one turn per user message
 * on stdin); text, json or stream-json on stdout in the shapes of Claude Code's `claude -p`.
 */
import type { PromptResult } from '../../core/agent/agent.js';
import type { LoopEvents } from '../../core/agent/loop.js';
import type { StreamJsonLine } from '../../core/agent/output-schema.js';
import { ClaudeJsonTurn } from './claude-json.js';
import { TurnRenderer, painter } from './render.js';
import type { Runtime } from './setup.js';

export { usageJson } from './claude-json.js';

export interface PrintOptions {
  format: 'text' | 'json' | 'stream-json';
  verbose?: boolean;
}

/** 0 = done, 1 = failed (provider error, truncation, refusal, iteration budget), 130 = interrupted. */
export function exitCodeOf(r: PromptResult): number {
  if (r.stop === 'end_turn') return 0;
  return r.stop === 'aborted' ? 130 : 1;
}

const write = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);

/** Runs one prompt with the output of `opts.format`; returns the result. */
export async function runTurn(
  rt: Runtime,
  prompt: string,
  opts: PrintOptions,
  signal: AbortSignal,
  all: StreamJsonLine[],
  /** As Claude Code with streamed input: a system/init line opens every turn. */
  turnOpts: { initEachTurn?: boolean } = {},
): Promise<PromptResult> {
  const { agent } = rt;
  const emit = (m: StreamJsonLine) => (opts.format === 'stream-json' ? write(m) : all.push(m));
  if (turnOpts.initEachTurn) emit(ClaudeJsonTurn.init(rt));
  const turn = new ClaudeJsonTurn(rt, emit);
  let events: LoopEvents;
  if (opts.format === 'text') {
    const renderer = new TurnRenderer((s) => process.stderr.write(s), painter(false), { full: true });
    events = opts.verbose
      ? { ...renderer.events(), onText: undefined }
      : { onRetry: (i) => process.stderr.write(`thclaws: retry ${i.attempt} in ${(i.delayMs / 1000).toFixed(1)} s: ${i.reason}\n`) };
  } else {
    events = turn.events();
  }
  const result = await agent.prompt(prompt, signal, events);
  const summary = turn.result(result);
  if (opts.format === 'stream-json') write(summary);
  else if (opts.format === 'json') write(opts.verbose ? [...all, summary] : summary);
  else {
    if (result.text) process.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    if (summary.errors) process.stderr.write(`thclaws: ${summary.errors[0]}\n`);
  }
  return result;
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
  const result = await withSignals((signal) => runTurn(rt, prompt, opts, signal, all));
  return exitCodeOf(result);
}
