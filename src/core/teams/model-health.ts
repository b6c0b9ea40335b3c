/**
 * What a team agent's status says about its model, for the lead and for teammates alike: `working` with the
 * retry shown while a call is retried; `error` with a one-line reason once the provider gives up (a refused
 * key, an unreachable endpoint), kept across turns until a model call succeeds again — never a green idle.
 */
import type { Heartbeat } from '../store/index.js';
import type { RetryInfo } from '../agent/providers/types.js';
import type { PromptResult } from '../agent/agent.js';

type Fields = { status?: 'working' | 'idle' | 'error'; error?: string | null; retry?: string | null };

/** Status lines are short: the reason's first line, clipped. */
function oneLine(s: string): string {
  const line = s.split('\n')[0]!.replace(/\s+/g, ' ').trim();
  return line.length <= 300 ? line : `${line.slice(0, 299)}…`;
}

export class ModelHealth {
  private failed: string | null = null;
  private retrying = false;
  private beat: Heartbeat | undefined;

  /** The heartbeat that writes this agent's status (the lead's starts once a team exists). */
  attach(beat: Heartbeat): void {
    this.beat = beat;
    // A new process has failed nothing yet: what an earlier one of this agent left (killed mid-retry) goes.
    this.patch({ error: this.failed, retry: null });
  }

  /** The reason the last model call failed, while no call has succeeded since. */
  get error(): string | null {
    return this.failed;
  }

  /** The state a turn's start (working) or end writes: `error` outlives the turn that failed. */
  state(working: boolean): 'working' | 'idle' | 'error' {
    return this.failed ? 'error' : working ? 'working' : 'idle';
  }

  onRetry(info: RetryInfo): void {
    this.retrying = true;
    this.patch({ retry: oneLine(`retrying (${info.attempt}/${info.of}): ${info.brief ?? info.reason}`) });
  }

  /** A model call answered: any earlier failure is over. */
  onSuccess(): void {
    if (!this.failed && !this.retrying) return;
    this.failed = null;
    this.retrying = false;
    this.patch({ status: 'working', error: null, retry: null });
  }

  /** A turn ended: a model failure turns the agent's state to `error`; the state to write is returned. */
  onTurnEnd(result: Pick<PromptResult, 'stop' | 'modelFailure' | 'error'> | undefined): 'idle' | 'error' {
    if (result?.stop === 'error') this.failed = oneLine(result.modelFailure ?? result.error ?? 'the model could not be called');
    // Any other ending but an abort or a budget stop means the model answered.
    else if (result && result.stop !== 'aborted' && result.stop !== 'budget') this.failed = null;
    const clear = this.retrying ? { retry: null } : {};
    this.retrying = false;
    if (this.failed || 'retry' in clear) this.patch({ ...clear, error: this.failed });
    return this.failed ? 'error' : 'idle';
  }

  private patch(fields: Fields): void {
    void this.beat?.patch(fields).catch(() => undefined);
  }
}
