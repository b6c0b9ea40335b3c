import type { AgentStateName } from '../../shared/api';

const LABEL: Record<AgentStateName, string> = {
  spawning: 'spawning',
  idle: 'idle',
  working: 'working',
  error: 'error',
  stopped: 'stopped',
  dead: 'dead',
  defined: 'not started',
};

/** Colour and text both carry the state (readable without colour). */
export function StatusBadge({ state }: { state: AgentStateName }) {
  return (
    <span className={`badge badge-${state}`} data-state={state}>
      {LABEL[state]}
    </span>
  );
}
