import type { HostEvent } from '../../contract/api.js';
import type { AgentTerminal, TerminalView } from './terminal.js';

/** What the lead REPL prints when it waits for a prompt (its `PROMPT`). */
export const READY = 'thclaws> ';

/**
 * Types a first prompt into the lead's REPL once it shows its prompt, as a person would (the live demo: the
 * person watches the lead take the prompt and build the team). A terminal drops type-ahead during a turn, so
 * the text waits for the REPL's prompt instead of being written at start. Resolves once typed.
 */
export function typeWhenReady(terminal: AgentTerminal, text: string, timeoutMs = 60_000): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = '';
    let done = false;
    const finish = (typed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // Detached on the next tick: `attach` may still be replaying to this view.
      setImmediate(() => terminal.detach(view));
      resolve(typed);
    };
    const view: TerminalView = {
      send(ev: HostEvent) {
        if (done || (ev.type !== 'output' && ev.type !== 'replay') || ev.agent !== terminal.agent) return;
        // A watcher acknowledges what it read, or the flow gate would pause the lead for it.
        if (ev.data.length) terminal.ack(view, ev.data.length);
        seen = (seen + ev.data).slice(-4096);
        if (seen.includes(READY) && terminal.write(`${text}\r`)) finish(true);
      },
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    timer.unref();
    terminal.attach(view);
  });
}
