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
export function StatusBadge({ state, waiting = false }: { state: AgentStateName; waiting?: boolean }) {
  return (
    <span className={`badge badge-${waiting ? 'waiting' : state}`} data-state={state} data-waiting={waiting || undefined}>
      {waiting ? 'waiting for you' : STATE_LABEL[state]}
    </span>
  );
}
