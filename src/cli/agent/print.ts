/**
 * `thclaws -p`: one prompt to completion (or, with `--input-format stream-json`, one turn per user message
 * on stdin); text, json or stream-json on stdout in the shapes of Claude Code's `claude -p`.
 */
import readline from 'node:readline';
import type { PromptResult } from '../../core/agent/agent.js';
import type { LoopEvents } from '../../core/agent/loop.js';
import { z } from 'zod';
import { StreamJsonInput, type StreamJsonLine } from '../../core/agent/output-schema.js';
import { CliError } from '../errors.js';
import { ClaudeJsonTurn } from './claude-json.js';
import { TurnRenderer, painter } from './render.js';
import type { Runtime } from './setup.js';

export { usageJson } from './claude-json.js';

/** One line naming what is wrong with a stdin line: the JSON error, or the first schema issue and its key. */
function inputProblem(err: unknown): string {
  if (err instanceof z.ZodError) {
    const issue = err.issues[0]!;
    return `"${issue.path.join('.') || '(line)'}": ${issue.message}; expected {"type":"user","message":{"role":"user","content":"…"}}`;
  }
  return (err as Error).message.split('\n')[0]!;
}

export interface PrintOptions {
  format: 'text' | 'json' | 'stream-json';
  verbose?: boolean;
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

/** Runs one prompt with the output of `opts.format`; returns its exit code. */
async function runTurn(rt: Runtime, prompt: string, opts: PrintOptions, signal: AbortSignal, all: StreamJsonLine[]): Promise<number> {
  const { agent } = rt;
  const emit = (m: StreamJsonLine) => (opts.format === 'stream-json' ? write(m) : all.push(m));
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
  const tools: ToolTally = { calls: 0, failed: 0 };
  const result = await agent.prompt(prompt, signal, countTools(events, tools));
  const summary = turn.result(result);
  if (result.stop === 'end_turn' && allToolsFailed(tools)) {
    summary.is_error = true;
    summary.subtype = 'error_during_execution';
    summary.errors = [allFailedLine(tools)];
  }
  if (opts.format === 'stream-json') write(summary);
  else if (opts.format === 'json') write(opts.verbose ? [...all, summary] : summary);
  else {
    if (result.text) process.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    if (summary.errors) process.stderr.write(`thclaws: ${summary.errors[0]}\n`);
  }
  return exitCodeOf(result, tools);
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
  return withSignals((signal) => runTurn(rt, prompt, opts, signal, all));
}

/** `--input-format stream-json`: each stdin line is a user message; a turn per message, a result per turn. */
export async function runStreamInput(rt: Runtime, opts: PrintOptions): Promise<number> {
  if (opts.format !== 'stream-json') throw new CliError('--input-format stream-json needs --output-format stream-json');
  write(ClaudeJsonTurn.init(rt));
  let worst = 0;
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of rl) {
    lineNo++;
    if (!line.trim()) continue;
    let msg;
    try {
      msg = StreamJsonInput.parse(JSON.parse(line));
    } catch (err) {
      process.stderr.write(`thclaws: stdin line ${lineNo}: not a stream-json user message: ${inputProblem(err)}\n`);
      worst = Math.max(worst, 2);
      continue;
    }
    const c = msg.message.content;
    const prompt = typeof c === 'string' ? c : c.map((b) => b.text).join('\n');
    const code = await withSignals((signal) => runTurn(rt, prompt, opts, signal, []));
    if (code === 130) return code;
    worst = Math.max(worst, code);
  }
  return worst;
}
