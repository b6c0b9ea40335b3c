import type { AgentStateName } from '../../shared/api';

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

/** Colour and text both carry the state (readable without colour). */
export function StatusBadge({ state, waiting = false, reason }: { state: AgentStateName; waiting?: boolean; /** Why it is in `error`, on hover. */ reason?: string | null }) {
  // An agent in error is failing whatever it waits for: the failure is what a person must see.
  const w = waiting && state !== 'error';
  return (
    <span className={`badge badge-${w ? 'waiting' : state}`} data-state={state} data-waiting={w || undefined} title={reason ?? undefined}>
      {w ? 'waiting for you' : STATE_LABEL[state]}
    </span>
  );
}
