import type { AgentStateName } from '../../contract/agent-states';

export const STATE_LABEL: Record<AgentStateName, string> = {
  spawning: 'spawning',
  idle: 'idle',
  working: 'working',
  error: 'error',
  stopped: 'stopped',
  dead: 'dead',
  defined: 'not started',
  not_configured: 'not configured',
};

/**
 * Colour and text both carry the state (readable without colour). `onOpen`: waiting for the person, the badge
 * is the one control that shows the request (no second "waiting" label beside it).
 */
export function StatusBadge({ state, waiting = false, reason, onOpen }: { state: AgentStateName; waiting?: boolean; /** Why it is in `error`, on hover. */ reason?: string | null; onOpen?: () => void }) {
  // An agent in error is failing whatever it waits for: the failure is what a person must see.
  const w = waiting && state !== 'error';
  if (w && onOpen) {
    return (
      <button type="button" className="badge badge-waiting pane-waiting" data-state={state} data-waiting title="waiting for your answer: show the request in the approval inbox" onClick={onOpen}>
        waiting for you
      </button>
    );
  }
  return (
    <span className={`badge badge-${w ? 'waiting' : state}`} data-state={state} data-waiting={w || undefined} title={reason ?? undefined}>
      {w ? 'waiting for you' : STATE_LABEL[state]}
    </span>
  );
}
