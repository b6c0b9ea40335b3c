import { LEAD } from '../../core/store/index.js';
import { READY } from './lead-prompt.js';
import type { AgentTerminal } from './terminal.js';
import type { TeamHost } from './team-host.js';

/** How long a message waits for the lead's REPL to come back to its prompt (a turn in progress). */
const READY_MS = 30_000;

/**
 * The person's message to the lead before a team exists (no inbox is read yet): typed into the lead's REPL
 * once it waits at its own prompt — never into a turn (the REPL drops type-ahead) nor a permission question
 * (the text would be its answer) — on one line (a newline would send the rest as a second prompt), with no
 * control character (each would act as a key).
 */
export async function messageLeadWithoutTeam(host: TeamHost, text: string): Promise<number> {
  if (!host.launcher.get(LEAD)) throw new Error('the lead is not running: start it with Respawn on its pane');
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ').replace(/\t/g, ' ').trim();
  if (!line) throw new Error('message text is empty');
  // Typed into a terminal, a control character is a key (Ctrl-D ends the REPL, Ctrl-U erases the line).
  // eslint-disable-next-line no-control-regex
  const control = /[\x00-\x1f\x7f-\x9f]/.exec(line);
  if (control) throw new Error(`the message holds a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) that the lead's terminal would take as a key: remove it and send again`);
  const terminal = host.terminal(LEAD);
  const end = Date.now() + READY_MS;
  while (!atPrompt(terminal)) {
    if (Date.now() > end || !host.launcher.get(LEAD)) throw new Error(`the lead did not come back to its prompt within ${READY_MS / 1000} s: send again when its turn ends`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!terminal.write(`${line}\r`)) throw new Error('the lead is read-only here');
  return 1;
}

/**
 * What readline prints when it (re)draws the bare prompt: cursor to column 1, clear below, the prompt, the cursor
 * after it. A model's streamed text is printed as it comes, so a turn quoting the prompt (`thclaws> ` on a line
 * of its own, then a pause) looks the same on the screen but does not end the output with this (unless the
 * model writes these escape sequences itself: its text reaches the terminal raw).
 */
const PROMPT_DRAWN = `\x1b[1G\x1b[0J${READY}`;

/**
 * The REPL waits at its prompt: the output ends with readline drawing the bare prompt, and the screen (all
 * output parsed) ends with it, nothing typed after it.
 */
function atPrompt(terminal: AgentTerminal): boolean {
  // eslint-disable-next-line no-control-regex
  if (!terminal.recent.replace(/\x1b\[\d+G$/, '').endsWith(PROMPT_DRAWN)) return false;
  if (terminal.mirror.backlog > 0 || terminal.mirror.inParser > 0) return false;
  const lines = terminal.mirror.text().split('\n');
  let i = lines.length - 1;
  while (i > 0 && !lines[i]!.trim()) i--;
  return lines[i]!.trimEnd() === READY.trimEnd();
}
