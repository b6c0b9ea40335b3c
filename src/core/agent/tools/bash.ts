/**
 * Bash: `sh -c` without a terminal (stdin closed, CI-style env), in its own process group so a timeout or
 * an abort kills the command and everything it started.
 */
import { spawn } from 'node:child_process';
import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../types.js';
import { limitsOf, toolError } from './common.js';

const Input = z
  .object({
    command: z.string().min(1).describe('Shell command, run with sh -c in the working directory'),
    timeout: z.number().int().min(1).optional().describe('Timeout in milliseconds (default 120000, max 600000)'),
  })
  .strict();

/** After SIGKILL, how long the pipes may stay open before the call stops reading and returns. */
const DETACH_AFTER_KILL_MS = 200;

/** Memory bound while collecting output; the loop caps what the model sees much lower. */
const KEEP_BYTES = 256 * 1024;

/** Keeps the first and the last KEEP_BYTES of a stream: errors tend to be at the end. */
class HeadTail {
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  private dropped = 0;

  push(b: Buffer): void {
    if (this.headLen < KEEP_BYTES) {
      const take = b.subarray(0, KEEP_BYTES - this.headLen);
      this.head.push(take);
      this.headLen += take.length;
      b = b.subarray(take.length);
    }
    if (b.length === 0) return;
    this.tail.push(b);
    this.tailLen += b.length;
    while (this.tailLen - this.tail[0]!.length >= KEEP_BYTES) {
      const first = this.tail.shift()!;
      this.tailLen -= first.length;
      this.dropped += first.length;
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return this.dropped > 0 ? `${head}\n[... ${this.dropped} bytes omitted ...]\n${tail}` : head + tail;
  }
}

/** Environment that keeps tools from waiting on a person: no pagers, no editors, no prompts. */
function commandEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CI: '1',
    TERM: 'dumb',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    NPM_CONFIG_YES: 'true',
    EDITOR: 'true',
    VISUAL: 'true',
    GIT_EDITOR: 'true',
  };
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

export async function runCommand(command: string, ctx: ToolContext, timeoutMs: number): Promise<ToolResult> {
  const { bashKillGraceMs } = limitsOf(ctx);
  let line = command;
  try {
    if (ctx.sandbox) line = await ctx.sandbox.wrap(command, ctx.signal);
  } catch (err) {
    return toolError(`refused: ${(err as Error).message}`);
  }
  return new Promise((resolve) => {
    const out = new HeadTail();
    const child = spawn('/bin/sh', ['-c', line], {
      cwd: ctx.cwd,
      env: commandEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let ended: 'timeout' | 'aborted' | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let detachTimer: NodeJS.Timeout | undefined;
    /** A process that left the group (setsid, a daemon) may still hold the pipes open after the kill. */
    let leftRunning = false;
    const stop = (why: 'timeout' | 'aborted') => {
      if (ended || child.pid === undefined) return;
      ended = why;
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => {
        killGroup(child.pid!, 'SIGKILL');
        // Whatever still holds the output open after SIGKILL is outside our reach: stop reading so the call returns.
        detachTimer = setTimeout(() => {
          leftRunning = true;
          child.stdout.destroy();
          child.stderr.destroy();
        }, DETACH_AFTER_KILL_MS);
      }, bashKillGraceMs);
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('aborted');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => out.push(b));
    child.on('error', (err) => {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(toolError(`could not start command: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(detachTimer);
      ctx.signal.removeEventListener('abort', onAbort);
      // Stragglers that ignored SIGTERM but kept no pipe open still get the SIGKILL.
      if (killTimer && child.pid !== undefined) {
        clearTimeout(killTimer);
        killGroup(child.pid, 'SIGKILL');
      }
      const raw = out.text().trimEnd();
      // A write the OS sandbox refused gets one line naming the rule, even when the command went on and exited 0.
      const why = ctx.sandbox?.explain?.(raw, ctx.cwd);
      const text = why ? `${raw}\n${why}` : raw;
      const note = leftRunning ? '; a process it started in another session was left running and still holds its output' : '';
      if (ended === 'timeout') {
        resolve(toolError(`${text}\n[command timed out after ${timeoutMs} ms and was killed${note}]`.trimStart()));
      } else if (ended === 'aborted') {
        resolve(toolError(`${text}\n[command aborted by the user${note}]`.trimStart()));
      } else if (code === 0) {
        resolve({ content: text || '(no output)' });
      } else {
        resolve(toolError(`${text}\n[exit code ${code ?? signal}]`.trimStart()));
      }
    });
  });
}

export const bashTool: Tool<z.infer<typeof Input>> = {
  name: 'Bash',
  description:
    'Run a shell command (sh -c) in the working directory, without a terminal: never start interactive programs. Output is stdout and stderr combined; non-zero exit codes are reported.',
  inputSchema: Input,
  needsPermission: true,
  summarize: (input) => `run: ${input.command}`,
  async preflight(input, ctx) {
    const verdict = ctx.guard?.checkCommand(input.command, ctx.cwd);
    if (verdict && !verdict.allowed) return toolError(`refused: ${verdict.reason} — ${verdict.advice}`);
    return undefined;
  },
  async run(input, ctx) {
    // The guard sees the full original command before anything runs.
    const refused = await bashTool.preflight!(input, ctx);
    if (refused) return refused;
    const limits = limitsOf(ctx);
    const timeout = Math.min(input.timeout ?? limits.bashTimeoutMs, limits.bashMaxTimeoutMs);
    return runCommand(input.command, ctx, timeout);
  },
};
