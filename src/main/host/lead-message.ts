import { LEAD } from '../../core/store/index.js';
import { typeWhenReady } from './lead-prompt.js';
import type { TeamHost } from './team-host.js';

/** How long a message waits for the lead's REPL to come back to its prompt (a turn in progress). */
const READY_MS = 30_000;

/**
 * The person's message to the lead before a team exists (no inbox is read yet): typed into the lead's REPL
 * when it shows its prompt, on one line (a newline would send the rest as a second prompt). Resolves with 1 once typed.
 */
export async function messageLeadWithoutTeam(host: TeamHost, text: string): Promise<number> {
  if (!host.launcher.get(LEAD)) throw new Error('the lead is not running: start it with Respawn on its pane');
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  if (!line) throw new Error('message text is empty');
  if (!(await typeWhenReady(host.terminal(LEAD), line, READY_MS))) throw new Error(`the lead did not come back to its prompt within ${READY_MS / 1000} s: send again when its turn ends`);
  return 1;
}
