/**
 * Team hooks, as Claude Code's: settings `hooks.<Event>` = `[{matcher?, hooks: [{type: "command", command,
 * timeout?}]}]`. Each command runs in `sh -c` with the event JSON on stdin. For the blocking events
 * (TaskCreated, TaskCompleted, PreToolUse) a non-zero exit, a timeout or a failure to start blocks the action
 * and the hook's stderr is what the agent reads; for the others a failure is printed and journaled, never
 * silently dropped.
 */
import { spawn } from 'node:child_process';
import { z } from 'zod';

export const HOOK_EVENTS = ['TaskCreated', 'TaskCompleted', 'TeammateIdle', 'PreToolUse', 'PermissionRequest'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
export const BLOCKING_EVENTS: ReadonlySet<HookEvent> = new Set(['TaskCreated', 'TaskCompleted', 'PreToolUse']);

const HookCommandSchema = z.looseObject({
  type: z.literal('command').default('command'),
  command: z.string().min(1),
  /** Seconds; Claude Code's unit. */
  timeout: z.number().positive().max(3600).optional(),
});
const HookMatcherSchema = z.looseObject({
  /** Tool name (PreToolUse, PermissionRequest) as a regex anchored at both ends; absent or `*` matches all. */
  matcher: z.string().optional(),
  hooks: z.array(HookCommandSchema).min(1),
});
export const HooksSchema = z.partialRecord(z.enum(HOOK_EVENTS), z.array(HookMatcherSchema)).default({});
export type HooksConfig = z.infer<typeof HooksSchema>;

/** Default per-command limit: a hook that hangs must not hang the agent. */
export const HOOK_TIMEOUT_MS = 60_000;
/** Output kept from a hook (stderr reaches the model). */
const OUTPUT_MAX = 10_000;

export interface HookResult {
  command: string;
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  error?: string;
}

export interface HookVerdict {
  /** Set when a blocking event's hook refused: what the agent reads. */
  blocked?: string;
  results: HookResult[];
}

function matches(matcher: string | undefined, target: string | undefined): boolean {
  if (!matcher || matcher === '*' || target === undefined) return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(target);
  } catch {
    return matcher === target;
  }
}

/** After the hook's shell exits, how long output still held open by a process it left behind may drain. */
const DRAIN_AFTER_EXIT_MS = 200;

function runOne(command: string, input: string, cwd: string, timeoutMs: number): Promise<HookResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let exitCode: number | null = null;
    let drain: NodeJS.Timeout | undefined;
    let settled = false;
    const child = spawn('/bin/sh', ['-c', command], { cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    // The result is the shell's exit: a background job or a process in its own session that keeps the
    // output pipes open must not hold the agent (`close` waits for every holder of the pipes).
    const finish = (r: Omit<HookResult, 'command' | 'stdout' | 'stderr' | 'timedOut'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ command, ...r, stdout, stderr, timedOut });
    };
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
      finish({ code: exitCode });
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => (stdout = (stdout + d.toString('utf8')).slice(-OUTPUT_MAX)));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString('utf8')).slice(-OUTPUT_MAX)));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('error', (err) => finish({ code: null, error: err.message }));
    child.on('exit', (code) => {
      exitCode = code;
      drain = setTimeout(() => finish({ code: exitCode }), DRAIN_AFTER_EXIT_MS);
    });
    child.on('close', (code) => finish({ code: code ?? exitCode }));
  });
}

export interface RunHooksOptions {
  cwd: string;
  /** Tool name the matchers are tested against. */
  target?: string;
  /** Where failures are shown (the agent's output, the lead's screen). */
  print?: (line: string) => void;
  /** Where failures are recorded (the team journal). */
  record?: (reason: string) => void;
}

/** Runs the event's matching hooks in order; a blocking event stops at the first refusal. */
export async function runHooks(hooks: HooksConfig | undefined, event: HookEvent, payload: Record<string, unknown>, opts: RunHooksOptions): Promise<HookVerdict> {
  const groups = (hooks?.[event] ?? []).filter((g) => matches(g.matcher, opts.target));
  const results: HookResult[] = [];
  const input = JSON.stringify({ hook_event_name: event, cwd: opts.cwd, ...payload });
  for (const g of groups) {
    for (const h of g.hooks) {
      const r = await runOne(h.command, input, opts.cwd, h.timeout ? h.timeout * 1000 : HOOK_TIMEOUT_MS);
      results.push(r);
      const failed = r.code !== 0 || r.timedOut || r.error;
      if (!failed) continue;
      const why = r.timedOut ? `timed out after ${h.timeout ?? HOOK_TIMEOUT_MS / 1000} s` : r.error ? `could not run: ${r.error}` : `exit ${r.code}`;
      const detail = r.stderr.trim() || r.stdout.trim();
      opts.record?.(`hook ${event} ${BLOCKING_EVENTS.has(event) ? 'blocked' : 'failed'} (${why}): ${h.command}${detail ? ` — ${detail.slice(0, 300)}` : ''}`);
      if (BLOCKING_EVENTS.has(event)) {
        opts.print?.(`[hook ${event}] blocked (${why}): ${h.command}`);
        return { blocked: `${event} hook refused (${why})${detail ? `: ${detail}` : ''}`, results };
      }
      opts.print?.(`[hook ${event}] failed (${why}): ${h.command}${detail ? ` — ${detail.split('\n')[0]}` : ''}`);
    }
  }
  return { results };
}

/** Runs a team event's hooks for a session: failures go to stderr (the agent's output) and the team journal. */
export function sessionHooks(session: { opts: { hooks?: HooksConfig; cwd: string }; team: { journal: { record(e: { event: 'note'; file: string; reason: string }): void }; paths: { log: string } } }) {
  return (event: HookEvent, payload: Record<string, unknown>, target?: string): Promise<HookVerdict> => {
    if (!session.opts.hooks?.[event]?.length) return Promise.resolve({ results: [] });
    return runHooks(session.opts.hooks, event, payload, {
      cwd: session.opts.cwd,
      ...(target !== undefined ? { target } : {}),
      print: (l) => process.stderr.write(`${l}\n`),
      record: (reason) => session.team.journal.record({ event: 'note', file: session.team.paths.log, reason }),
    });
  };
}
