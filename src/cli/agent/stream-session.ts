/**
 * `-p --input-format stream-json --output-format stream-json`: a session driven over stdin as the Claude
 * Agent SDK drives Claude Code. stdin is read all the time, turns or no turns: user messages queue up and run
 * one turn each; `control_request`s are answered at once (an `interrupt` ends the running turn with its
 * result and the session goes on); `control_response`s settle our own requests (`can_use_tool`). No control
 * line ends the process; it ends when stdin closes and the queued turns are done.
 */
import readline from 'node:readline';
import { z } from 'zod';
import type { PromptResult } from '../../core/agent/agent.js';
import { emptyUsage, type PromptBlock } from '../../core/agent/providers/types.js';
import { PromptBlockJson, StreamJsonInput } from '../../core/agent/output-schema.js';
import { ControlCancelLine, ControlRequestLine, ControlResponseLine, errorResponse, OutgoingRequests } from './control-protocol.js';
import { handleControlRequest, mapPermissionMode, type SessionControl } from './control-handlers.js';
import { ClaudeJsonTurn } from './claude-json.js';
import { exitCodeOf, runTurn, type PrintOptions } from './print.js';
import { SdkApprover } from './sdk-approver.js';
import type { Runtime } from './setup.js';

export interface StreamSessionOptions extends PrintOptions {
  /** `--permission-prompt-tool stdio`: permission questions go to the SDK's canUseTool. */
  permissionPromptStdio?: boolean;
}

function inputProblem(err: unknown): string {
  if (err instanceof z.ZodError) {
    const issue = err.issues[0]!;
    return `"${issue.path.join('.') || '(line)'}": ${issue.message}; expected {"type":"user","message":{"role":"user","content":"…"}}`;
  }
  return (err as Error).message.split('\n')[0]!;
}

/** The first content block we cannot take, named by its place and type. */
function blockProblem(content: unknown[]): string | undefined {
  for (let i = 0; i < content.length; i++) {
    const r = PromptBlockJson.safeParse(content[i]);
    if (r.success) continue;
    const issue = r.error.issues[0]!;
    const type = (content[i] as { type?: unknown } | null)?.type;
    return `content[${i}]${typeof type === 'string' ? ` (${type.slice(0, 40)})` : ''}: "${issue.path.join('.') || '(block)'}": ${issue.message}`;
  }
  return undefined;
}

const write = (obj: unknown) => process.stdout.write(`${JSON.stringify(obj)}\n`);

/** A prompt that does not run: its turn is an init line and an error result naming why. */
export function refuseTurn(rt: Runtime, reason: string): void {
  write(ClaudeJsonTurn.init(rt));
  write(new ClaudeJsonTurn(rt, write, true).result({ stop: 'error', text: '', usage: emptyUsage(), iterations: 0, error: reason }));
}

function sdkApprover(rt: Runtime, out: OutgoingRequests, control: SessionControl): SdkApprover {
  const p = rt.permissions;
  return new SdkApprover({
    out,
    target: {
      addRules: (k, r) => p.addRules(k, r),
      replaceRules: (k, r) => p.replaceRules(k, r),
      removeRules: (k, r) => p.removeRules(k, r),
      get currentMode() {
        return p.currentMode;
      },
      setMode: (m) => {
        const mode = mapPermissionMode(m);
        if (typeof mode === 'string') {
          p.setMode(mode);
          rt.mode = mode;
        }
        return mode;
      },
      projectRoot: rt.info.projectRoot,
    },
    interrupt: () => {
      if (control.interrupt()) control.interrupted = true;
    },
    warn: (line) => process.stderr.write(`thclaws: ${line}\n`),
  });
}

export async function runStreamSession(rt: Runtime, opts: StreamSessionOptions): Promise<number> {
  const out = new OutgoingRequests(write);
  // A message we cannot take (a bad content block) keeps its place: its turn is an error result.
  const queue: (string | PromptBlock[] | { refused: string })[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  let worst = 0;
  let current: AbortController | undefined;
  const control: SessionControl = {
    rt,
    out,
    interrupt: () => {
      if (!current) return false;
      current.abort();
      return true;
    },
  };
  if (opts.permissionPromptStdio) rt.permissions.setApprover(sdkApprover(rt, out, control));

  const complain = (lineNo: number, what: string) => {
    process.stderr.write(`thclaws: stdin line ${lineNo}: ${what}\n`);
    worst = Math.max(worst, 2);
  };

  const reader = (async () => {
    const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    let lineNo = 0;
    for await (const line of rl) {
      lineNo++;
      if (!line.trim()) continue;
      let obj: unknown;
      try {
        obj = JSON.parse(line);
      } catch (err) {
        complain(lineNo, `not a stream-json user message: ${inputProblem(err)}`);
        continue;
      }
      const type = (obj as { type?: unknown } | null)?.type;
      if (type === 'control_request') {
        const req = ControlRequestLine.safeParse(obj);
        if (req.success) void handleControlRequest(control, req.data).then(write);
        else {
          // Answered when it can be (its id is readable): the caller's promise fails instead of waiting forever.
          const id = (obj as { request_id?: unknown }).request_id;
          if (typeof id === 'string' && id) write(errorResponse(id, `malformed control_request: ${inputProblem(req.error)}`));
          else complain(lineNo, `malformed control_request: ${inputProblem(req.error)}`);
        }
        continue;
      }
      if (type === 'control_response') {
        const res = ControlResponseLine.safeParse(obj);
        if (!res.success || !out.settle(res.data)) complain(lineNo, 'control_response answers no request of ours');
        continue;
      }
      if (type === 'control_cancel_request' && ControlCancelLine.safeParse(obj).success) continue;
      // The SDK's transports send keep_alive lines that receivers must ignore.
      if (type === 'keep_alive') continue;
      const msg = StreamJsonInput.safeParse(obj);
      if (!msg.success && type === 'user' && Array.isArray((obj as { message?: { content?: unknown } }).message?.content)) {
        queue.push({ refused: `the user message on stdin line ${lineNo} was not run: ${blockProblem((obj as { message: { content: unknown[] } }).message.content) ?? inputProblem(msg.error)}` });
        wake?.();
        continue;
      }
      if (!msg.success) {
        complain(lineNo, `not a stream-json user message: ${inputProblem(msg.error)}`);
        continue;
      }
      const c = msg.data.message.content;
      // Text alone stays one prompt string (as before); images and documents go to the model as blocks.
      queue.push(typeof c === 'string' ? c : c.every((b) => b.type === 'text') ? c.map((b) => b.text).join('\n') : (c as PromptBlock[]));
      wake?.();
    }
    closed = true;
    out.failAll('stdin closed');
    wake?.();
  })();

  const next = async (): Promise<string | PromptBlock[] | { refused: string } | undefined> => {
    while (!queue.length && !closed) await new Promise<void>((r) => (wake = r));
    return queue.shift();
  };

  // As before the control protocol: a session announces itself once at start (scripts wait for it), then per turn.
  write(ClaudeJsonTurn.init(rt));
  for (let prompt = await next(); prompt !== undefined; prompt = await next()) {
    // A prompt that overtook `initialize` runs once its MCP servers and hooks are in place.
    await control.initializing;
    if (control.refused || (typeof prompt === 'object' && 'refused' in prompt)) {
      refuseTurn(rt, control.refused ?? (prompt as { refused: string }).refused);
      continue;
    }
    current = new AbortController();
    const onSignal = () => current?.abort();
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    let result: PromptResult;
    try {
      ({ result } = await runTurn(rt, prompt, opts, current.signal, [], { initEachTurn: true }));
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    const interruptedByControl = result.stop === 'aborted' && control.interrupted;
    control.interrupted = false;
    current = undefined;
    // A failed turn is told in its result line (is_error, subtype) and the session goes on, as with Claude
    // Code: the SDK reads a non-zero exit as a crash. Only a signal ends the session here.
    if (!interruptedByControl && exitCodeOf(result) === 130) {
      // The reader would keep an open stdin (and so the process) alive: a signal ends the session now.
      process.stdin.destroy();
      return 130;
    }
  }
  await reader;
  return worst;
}
