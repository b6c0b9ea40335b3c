import { HostClient } from './transport';
import { TerminalManager } from './terminals';
import { dashboard } from './store';

/** The renderer's singletons: one connection to the host and one terminal manager. */
export const client = new HostClient();
export const terminals = new TerminalManager(client);
terminals.onSavedOutput = (agent, file) => dashboard.getState().showSavedOutput({ agent, file });

const attached = new Set<string>();
/** A Claude Code team's tmux panes the person asked to type into ("Type here", ClaudeCode.tsx): only these take keys. */
export const typingInto = new Set<string>();

// Output received (rendered or not), reported once per burst of messages: the host holds bulk output back
// while too much is on its way, so a keystroke's echo never waits behind a flood in the pipe.
let received = 0;
function countReceived(chars: number): void {
  if (!received) queueMicrotask(() => {
    client.fire({ type: 'received', chars: Math.max(1, received) });
    received = 0;
  });
  received += chars;
}

client.onStatus((connected) => {
  dashboard.getState().setConnected(connected);
  if (connected) {
    attached.clear();
    void client.request({ type: 'subscribe' });
  }
});

client.onLost((lost, foreign) => dashboard.getState().setServerLost(lost, foreign));

client.onEvent((ev) => {
  if (ev.type === 'output' || ev.type === 'replay') {
    countReceived(ev.data.length);
    terminals.output(ev.agent, ev.data, ev.type === 'replay');
    return;
  }
  if (ev.type === 'pty_size') {
    terminals.ptySize(ev.agent, ev.cols, ev.rows);
    return;
  }
  dashboard.getState().apply(ev);
  if (ev.type === 'roster' || ev.type === 'member') {
    const members = ev.type === 'roster' ? ev.members : [ev.member];
    for (const m of members) {
      terminals.setReadonly(m.name, m.terminal.kind !== 'pty' && !typingInto.has(m.name));
      if (!attached.has(m.name)) {
        attached.add(m.name);
        client.fire({ type: 'attach', agent: m.name, ...terminals.size(m.name) });
      }
    }
  }
  if (ev.type === 'exit') dashboard.getState().notify(ev.code === 0 ? 'info' : 'warn', `${ev.agent} exited${ev.signal ? ` (${ev.signal})` : ` with code ${ev.code}`}`);
});

/** Runs a request and shows its error as a notice. */
export async function act(body: Parameters<HostClient['request']>[0]): Promise<unknown> {
  try {
    return await client.request(body);
  } catch (err) {
    dashboard.getState().notify('error', (err as Error).message);
    return undefined;
  }
}

// For tests and the bench: read what a pane shows.
(window as unknown as { __thclaws: unknown }).__thclaws = { terminals, dashboard };
