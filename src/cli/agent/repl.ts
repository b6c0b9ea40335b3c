/**
 * Interactive REPL on one readline interface: prompts, permission questions and Ctrl-C all go through it.
 * Ctrl-C aborts the running turn (or clears the line at the prompt); Ctrl-D or /quit exits.
 */
import { filePathOf } from '../../core/agent/tool-input.js';
import readline from 'node:readline';
import { CallbackApprover } from '../../core/agent/permissions.js';
import type { ApproverAnswer, PermissionRequest } from '../../core/agent/types.js';
import { VERSION } from '../version.js';
import { replExtensions, slashCommands, type ReplExtension } from './hooks.js';
import { outputSaver } from './live-tail.js';
import { TurnRenderer, painter } from './render.js';
import type { Runtime } from './setup.js';
import { announceQuestion } from './question-file.js';
import { registerBuiltinSlashCommands } from './slash.js';

export const PROMPT = 'thclaws> ';

export async function runRepl(rt: Runtime, opts: { verbose?: boolean } = {}): Promise<number> {
  registerBuiltinSlashCommands();
  const { agent } = rt;
  const input = process.stdin;
  const output = process.stdout;
  const terminal = !!input.isTTY;
  const paint = painter(!!output.isTTY && !process.env.NO_COLOR);
  const renderer = new TurnRenderer((s) => output.write(s), paint, {
    full: !!opts.verbose || !output.isTTY,
    columns: () => output.columns ?? 80,
    saveOutput: outputSaver(() => agent.session),
    ...(terminal ? { expandKey: 'Ctrl-O' } : {}),
  });
  const rl = readline.createInterface({ input, output, terminal, historySize: terminal ? 500 : 0, prompt: PROMPT });
  // Ctrl-O (readline binds nothing to it): the last tool output that was cut short, whole, at the prompt or mid-turn.
  if (terminal)
    input.on('keypress', (_s: string, key: { ctrl?: boolean; name?: string } | undefined) => {
      if (!key?.ctrl || key.name !== 'o') return;
      renderer.newline();
      if (waiting) output.write('\r\x1b[2K');
      renderer.showLastCut();
      if (waiting) rl.prompt(true);
    });

  let closed = false;
  let waiting: ((line: string | null) => void) | undefined;
  let turn: AbortController | undefined;
  // Piped input is read ahead; a terminal's type-ahead during a turn is dropped so it never answers a question.
  const queued: string[] = [];

  rl.on('line', (line) => {
    const w = waiting;
    waiting = undefined;
    if (w) w(line);
    else if (!terminal) queued.push(line);
  });
  rl.on('close', () => {
    closed = true;
    if (terminal) turn?.abort();
    const w = waiting;
    waiting = undefined;
    w?.(null);
  });
  const interrupt = () => {
    if (turn && !turn.signal.aborted) {
      turn.abort();
      renderer.line(paint.dim('^C (aborting the turn)'));
    } else if (terminal) {
      rl.write(null, { ctrl: true, name: 'u' });
      output.write(`^C ${paint.dim('(Ctrl-D or /quit to exit)')}\n`);
      rl.prompt();
    }
  };
  rl.on('SIGINT', interrupt);
  if (!terminal) process.on('SIGINT', interrupt);

  const ask = (prompt: string, signal?: AbortSignal): Promise<string | null> => {
    if (queued.length) return Promise.resolve(queued.shift()!);
    if (closed || signal?.aborted) return Promise.resolve(null);
    return new Promise((resolve) => {
      // The prompt is shown only while asking: readline redraws it on every resize, and one drawn mid-turn
      // looks like the REPL waiting (the dashboard would type a message into the turn, which drops it).
      const onAbort = () => {
        if (waiting === done) waiting = undefined;
        rl.setPrompt('');
        output.write('\n');
        resolve(null);
      };
      const done = (line: string | null) => {
        signal?.removeEventListener('abort', onAbort);
        rl.setPrompt('');
        resolve(line);
      };
      waiting = done;
      signal?.addEventListener('abort', onAbort, { once: true });
      rl.setPrompt(prompt);
      rl.prompt();
    });
  };

  const approver =
    rt.approver ??
    new CallbackApprover(async (req: PermissionRequest, signal: AbortSignal): Promise<ApproverAnswer> => {
      renderer.newline();
      const input = req.input as { command?: unknown; path?: unknown } | null;
      const detail = typeof input?.command === 'string' ? input.command : (filePathOf(input) ?? null);
      const withdraw = announceQuestion({ kind: 'permission', tool: req.tool, summary: req.summary, detail, rule: req.askRule ? null : (req.scope ?? req.tool) });
      try {
        return await askPermission(req, signal);
      } finally {
        withdraw();
      }
    });
  async function askPermission(req: PermissionRequest, signal: AbortSignal): Promise<ApproverAnswer> {
    for (;;) {
      // An ask rule asks every time: no "always" is offered for it.
      const choices = req.askRule ? `(the rule ${req.askRule} asks each time) [y]es / [n]o` : `[y]es / [n]o / [a]lways allow ${req.scope ?? req.tool}`;
      const ans = await ask(`Allow ${req.tool}: ${req.summary}? ${choices}: `, signal);
      if (ans === null) return 'deny';
      const a = ans.trim().toLowerCase();
      if (a === 'y' || a === 'yes') return 'allow';
      if (!req.askRule && (a === 'a' || a === 'always')) return 'always';
      if (a === 'n' || a === 'no') return 'deny';
      output.write(req.askRule ? 'please answer y or n\n' : 'please answer y, n or a\n');
    }
  }
  rt.permissions.setApprover(approver);

  // Turns injected by extensions (teammate messages for the lead) run when the REPL is idle.
  const INJECTED = '\u0000injected';
  const injected: Array<{ prompt: string; after?: () => Promise<void> }> = [];
  const extensions: ReplExtension[] = [];
  for (const make of replExtensions) {
    const ext = make({
      agent,
      inject: (prompt, after) => {
        injected.push({ prompt, ...(after ? { after } : {}) });
        const w = waiting;
        if (w && !turn) {
          waiting = undefined;
          output.write('\n');
          w(INJECTED);
        }
      },
      print: (line) => renderer.line(line),
      ask: (q) => ask(q),
    });
    if (ext) extensions.push(ext);
  }

  output.write(
    `thclaws ${VERSION} · ${agent.model} (${agent.provider.name}) · ${rt.mode === 'ask' ? 'asks before Write/Edit/Bash' : 'no permission prompts'}\n` +
      `${rt.resumed ? `resumed session ${agent.session.id} (${agent.messages.length} messages)` : `session ${agent.session.id}`} · /help for commands, Ctrl-D to exit\n`,
  );

  for (;;) {
    const line = injected.length ? INJECTED : await ask(PROMPT);
    if (line === null) break;
    if (line === INJECTED) {
      const item = injected.shift();
      if (!item) continue;
      turn = new AbortController();
      try {
        await agent.prompt(item.prompt, turn.signal, renderer.events());
        renderer.newline();
      } catch (err) {
        renderer.line(paint.red(`error: ${(err as Error).message}`));
      } finally {
        turn = undefined;
      }
      await item.after?.();
      continue;
    }
    const text = line.trim();
    if (!text) continue;
    if (text.startsWith('/')) {
      const [name = '', ...rest] = text.slice(1).split(/\s+/);
      if (name === 'quit' || name === 'exit') break;
      const cmd = slashCommands.get(name);
      if (!cmd) {
        output.write(`unknown command /${name}; /help lists them\n`);
        continue;
      }
      try {
        await cmd.run({ agent, args: rest.join(' '), print: (s) => output.write(`${s}\n`) });
      } catch (err) {
        output.write(paint.red(`/${name} failed: ${(err as Error).message}`) + '\n');
      }
      continue;
    }
    for (const e of extensions) e.onPersonPrompt?.(text);
    turn = new AbortController();
    try {
      const result = await agent.prompt(text, turn.signal, renderer.events());
      renderer.newline();
      if (result.stop === 'aborted') renderer.line(paint.dim('(turn aborted)'));
      else if (result.error) renderer.line(paint.red(`error: ${result.error}`));
      if (agent.provider.name !== 'scripted') {
        const u = result.usage;
        // `$?`: a model without a known price (a provider profile's model missing from its table).
        const cost = result.costUsd !== undefined ? ` · ≈ $${result.costUsd.toFixed(4)}` : ' · $?';
        renderer.line(paint.dim(`(${u.inputTokens} in · ${u.outputTokens} out · ${u.cacheReadTokens} cached${cost})`));
      }
    } catch (err) {
      renderer.line(paint.red(`error: ${(err as Error).message}`));
    } finally {
      turn = undefined;
    }
    if (closed && !queued.length) break;
  }
  for (const ext of extensions) await ext.onExit?.().catch((err) => output.write(paint.red(`exit: ${(err as Error).message}`) + '\n'));
  if (!terminal) process.off('SIGINT', interrupt);
  rl.close();
  output.write('\n');
  return 0;
}
