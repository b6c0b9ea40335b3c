import { TeamError } from './errors.js';
import type { Lease } from './lease.js';
import type { TaskFiles } from './task-files.js';

/** The agent leases as the claim path needs them (implemented by TeamStore). */
export interface AgentLeases {
  /** The lease this process holds for the agent, if any (lost ones included: claiming with them fails). */
  held(agent: string): Lease | undefined;
  /** Runs `fn` holding the agent's lease; refuses at once while a live process holds it. */
  withTemporary<T>(agent: string, fn: (lease: Lease) => Promise<T>): Promise<T>;
}

interface LocalGate {
  chain: Promise<unknown>;
  /** The agent's last claim; undefined = not known yet in this process. */
  last: string | null | undefined;
}

/**
 * "One in-progress task per agent" across processes, without a lock per claim: only the holder of an agent's
 * lease claims as that agent (a one-shot CLI takes the lease for the claim and is refused while the agent's
 * own process lives, stopped or not). The holder serialises its claims in memory and remembers its last one;
 * every claim re-checks the lease right before its write (claimGated), so a process that lost the lease
 * claims nothing more. The first claim in a process, and every temporary holder, scan once.
 */
export class ClaimGates {
  private readonly local = new Map<string, LocalGate>();

  constructor(
    private readonly leases: AgentLeases,
    private readonly files: TaskFiles,
  ) {}

  run<T>(agent: string, fn: (noteClaim: (id: string) => void, lease: Lease) => Promise<T>): Promise<T> {
    const lease = this.leases.held(agent);
    if (!lease) {
      return this.leases.withTemporary(agent, async (temp) => {
        this.assertNotBusy(agent, { chain: Promise.resolve(), last: undefined });
        return fn(() => {}, temp);
      });
    }
    let gate = this.local.get(agent);
    if (!gate) this.local.set(agent, (gate = { chain: Promise.resolve(), last: undefined }));
    const g = gate;
    const run = g.chain.then(async () => {
      lease.assertHeld();
      this.assertNotBusy(agent, g);
      return fn((id) => (g.last = id), lease);
    });
    g.chain = run.catch(() => {});
    return run;
  }

  private assertNotBusy(agent: string, gate: LocalGate): void {
    let busy: string[];
    if (gate.last === undefined) {
      busy = this.files
        .scan()
        .tasks.filter((t) => t.status === 'in_progress' && t.owner === agent)
        .map((t) => t.id);
      gate.last = busy[0] ?? null;
    } else if (gate.last) {
      const r = this.files.read(gate.last);
      busy = r.kind === 'ok' && r.task.status === 'in_progress' && r.task.owner === agent ? [gate.last] : [];
    } else busy = [];
    if (busy.length) throw new TeamError('busy', `agent '${agent}' is busy with task(s): ${busy.join(', ')}. Complete them first.`);
  }
}
