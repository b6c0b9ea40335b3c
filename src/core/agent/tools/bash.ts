/**
 * Bash: a foreground command returns when its shell exits (children it left in the background keep
 * running and are killed when the agent exits); `run_in_background` returns an id at once for BashOutput
 * and KillShell. A timeout or an abort kills the whole process group.
 */
import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import type { Tool, ToolContext, ToolResult } from '../types.js';
import { guardRefusal, limitsOf, toolError } from './common.js';
import { ShellRegistry } from './shells.js';
import { killGroup, spawnShell } from './spawn.js';

const Input = z
  .object({
    command: z.string().min(1).describe('Shell command, run with sh -c in the working directory'),
    timeout: z.number().int().min(1).optional().describe('Timeout in milliseconds (default 120000, max 600000)'),
    description: z.string().max(1000).optional().describe('What the command does, in a few words (shown to the person)'),
    run_in_background: z
      .boolean()
      .optional()
      .describe('Start a long-running command (a server, a watcher) and return its shell id at once; read it with BashOutput, stop it with KillShell'),
  })
  .strict();

/** After SIGKILL, how long the pipes may stay open before the call stops reading and returns. */
const DETACH_AFTER_KILL_MS = 200;
/** After the shell exits, how long its background children may keep the pipes open before the call returns. */
const DRAIN_AFTER_EXIT_MS = 100;
/** SIGTERM → SIGKILL grace on Ctrl-C, so the whole stop stays under a second. */
const ABORT_GRACE_MS = 500;
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
    return this.dropped > 0 ? `${head}\n[... ${this.dropped} bytes cut from the middle of this output ...]\n${tail}` : head + tail;
  }
}

/** Shells of callers that gave no registry (tests, one-off runs); killed on process exit like the others. */
let fallbackShells: ShellRegistry | undefined;
export function shellsOf(ctx: ToolContext): ShellRegistry {
  if (ctx.shells) return ctx.shells;
  if (!fallbackShells) {
    const shells = (fallbackShells = new ShellRegistry());
    process.once('exit', () => shells.killAll());
  }
  return fallbackShells;
}

/** The OS sandbox refusing to run Bash at all (setting `sandbox: "required"`) is a refusal, not a failure. */
function startError(err: unknown): ToolResult {
  const e = err as Error;
  return toolError(e.name === 'SandboxUnavailableError' ? `refused: ${e.message}` : `could not start command: ${e.message}`);
}

export async function runCommand(command: string, ctx: ToolContext, timeoutMs: number): Promise<ToolResult> {
  const { bashKillGraceMs } = limitsOf(ctx);
  let child;
  try {
    child = await spawnShell(command, ctx, ctx.signal);
  } catch (err) {
    return startError(err);
  }
  // Tracked from the start: an agent told to end (a signal, a closed terminal) kills it mid-run too.
  shellsOf(ctx).trackGroup(child.pid);
  return new Promise((resolve) => {
    const out = new HeadTail();
    let ended: 'timeout' | 'aborted' | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let detachTimer: NodeJS.Timeout | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    /** Something outside our reach (a process in another session, or a background child) still held the output. */
    let leftRunning: 'escaped' | 'background' | undefined;
    const detach = (why: 'escaped' | 'background') => {
      leftRunning = why;
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const stop = (why: 'timeout' | 'aborted') => {
      if (ended || exit || child.pid === undefined) return;
      ended = why;
      killGroup(child.pid, 'SIGTERM');
      // Ctrl-C must end the tool within a second; a timeout gives the command its full grace to clean up.
      const grace = why === 'aborted' ? Math.min(bashKillGraceMs, ABORT_GRACE_MS) : bashKillGraceMs;
      killTimer = setTimeout(() => {
        killGroup(child.pid, 'SIGKILL');
        detachTimer = setTimeout(() => detach('escaped'), DETACH_AFTER_KILL_MS);
      }, grace);
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('aborted');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    // Each stream decoded on its own, so a character split across two chunks reaches the live tail whole.
    const live = (decoder: StringDecoder) => (b: Buffer) => {
      out.push(b);
      if (ctx.onOutput) ctx.onOutput(decoder.write(b));
    };
    child.stdout.on('data', live(new StringDecoder('utf8')));
    child.stderr.on('data', live(new StringDecoder('utf8')));
    child.on('error', (err) => {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(toolError(`could not start command: ${err.message}`));
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (ended) return;
      // The foreground is done; children it put in the background may hold the pipes for hours.
      clearTimeout(timer);
      detachTimer = setTimeout(() => detach('background'), DRAIN_AFTER_EXIT_MS);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(detachTimer);
      ctx.signal.removeEventListener('abort', onAbort);
      // Stragglers that ignored SIGTERM but kept no pipe open still get the SIGKILL.
      if (killTimer) {
        clearTimeout(killTimer);
        killGroup(child.pid, 'SIGKILL');
      }
      const raw = out.text().trimEnd();
      // A write the OS sandbox refused gets one line naming the rule, even when the command went on and exited 0.
      const why = ctx.sandbox?.explain?.(raw, ctx.cwd);
      const text = why ? `${raw}\n${why}` : raw;
      const status = exit?.code ?? exit?.signal ?? code ?? signal;
      const note =
        leftRunning === 'escaped'
          ? '; a process it started in another session was left running and still holds its output'
          : leftRunning === 'background'
            ? '; processes it started in the background keep running (killed when the agent exits; use run_in_background to read their output)'
            : '';
      if (ended === 'timeout') resolve(toolError(`${text}\n[command timed out after ${timeoutMs} ms and was killed${note}]`.trimStart()));
      else if (ended === 'aborted') resolve(toolError(`${text}\n[command aborted by the user${note}]`.trimStart()));
      else {
        const result = `${text || '(no output)'}\n[exit code ${status}${note}]`;
        resolve(status === 0 ? { content: result } : toolError(result));
      }
    });
  });
}

async function startBackground(command: string, ctx: ToolContext): Promise<ToolResult> {
  let child;
  try {
    // Its own signal: the shell outlives the turn that started it.
    child = await spawnShell(command, ctx, new AbortController().signal);
  } catch (err) {
    return startError(err);
  }
  const shell = shellsOf(ctx).add(command, child);
  return { content: `started in the background as ${shell.id} (pid ${shell.pid}); read its output with BashOutput {"id": "${shell.id}"}, stop it with KillShell {"id": "${shell.id}"}` };
}

export const bashTool: Tool<z.infer<typeof Input>> = {
  name: 'Bash',
  description:
    'Run a shell command (sh -c) in the working directory, without a terminal: never start interactive programs. Output is stdout and stderr combined, with the exit code. ' +
    'For servers and watchers use run_in_background: true, then BashOutput and KillShell.',
  inputSchema: Input,
  needsPermission: true,
  summarize: (input) => `run${input.run_in_background ? ' in the background' : ''}: ${input.command}`,
  async preflight(input, ctx) {
    return guardRefusal(ctx.guard?.checkCommand(input.command, ctx.cwd));
  },
  async run(input, ctx) {
    if (input.run_in_background) return startBackground(input.command, ctx);
    const limits = limitsOf(ctx);
    const timeout = Math.min(input.timeout ?? limits.bashTimeoutMs, limits.bashMaxTimeoutMs);
    return runCommand(input.command, ctx, timeout);
  },
};

const OutputInput = z.object({ bash_id: z.string().min(1).describe('Shell id returned by Bash run_in_background') }).strict();
const KillInput = z.object({ shell_id: z.string().min(1).describe('Shell id returned by Bash run_in_background') }).strict();

function unknownShell(id: string, ctx: ToolContext): ToolResult {
  const ids = shellsOf(ctx).ids();
  return toolError(`no background shell "${id}"${ids.length ? `; running or finished: ${ids.join(', ')}` : '; none was started'}`);
}

export const bashOutputTool: Tool<z.infer<typeof OutputInput>> = {
  name: 'BashOutput',
  description: 'New output of a background shell since the last read, and whether it is still running.',
  inputSchema: OutputInput,
  needsPermission: false,
  legacyFields: { id: 'bash_id' },
  summarize: (input) => `output of ${input.bash_id}`,
  async run(input, ctx) {
    const r = shellsOf(ctx).read(input.bash_id);
    if (!r) return unknownShell(input.bash_id, ctx);
    const { shell } = r;
    const status = shell.status === 'running' ? 'running' : shell.status === 'killed' ? 'killed' : `exited with code ${shell.exitCode}`;
    const dropped = r.dropped ? `[${r.dropped} older characters dropped]\n` : '';
    return { content: `${dropped}${r.output.trimEnd() || '(no new output)'}\n[${shell.id}: ${status}]` };
  },
};

export const killShellTool: Tool<z.infer<typeof KillInput>> = {
  name: 'KillShell',
  description: 'Stop a background shell started with Bash run_in_background (its whole process group).',
  inputSchema: KillInput,
  needsPermission: false,
  legacyFields: { id: 'shell_id' },
  summarize: (input) => `kill ${input.shell_id}`,
  async run(input, ctx) {
    const before = shellsOf(ctx).get(input.shell_id)?.status;
    const shell = shellsOf(ctx).kill(input.shell_id);
    if (!shell) return unknownShell(input.shell_id, ctx);
    if (before !== 'killed' && shell.status === 'killed') return { content: `killed ${shell.id}` };
    return { content: `${shell.id} had already ${before === 'killed' ? 'been killed' : 'exited'}` };
  },
};
