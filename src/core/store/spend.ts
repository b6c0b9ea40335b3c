/**
 * Each agent's spend per model call over time (`agents/<name>/spend.json`): when, how many tokens, what it cost
 * (null: a model without a price). Appended by whoever accounts the call (Statuses.account), read back by the
 * dashboard's spend chart, so the history outlives the dashboard and the host. Bounded: the newest
 * MAX_SPEND_CALLS calls are kept. Written under its lock, atomically; a corrupt file is moved aside (never
 * overwritten) and the history starts again from the next call.
 */
import { z } from 'zod';
import { ensureDir, parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import type { Journal } from './journal.js';
import { withLock } from './lock.js';
import type { TeamPaths } from './paths.js';
import { describeIssues } from '../../contract/store-schemas.js';

/** Calls kept per agent: enough for a day of a busy teammate's chart, ~30 KB on disk. */
export const MAX_SPEND_CALLS = 500;

export const SpendCallSchema = z.object({
  at: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  usd: z.number().nonnegative().nullable(),
});
export type SpendCall = z.infer<typeof SpendCallSchema>;

const SpendFileSchema = z.object({ calls: z.array(SpendCallSchema) });

type Parsed = { kind: 'ok'; calls: SpendCall[] } | { kind: 'missing' } | { kind: 'corrupt'; reason: string };

export class SpendHistory {
  constructor(
    private readonly paths: TeamPaths,
    private readonly journal: Journal,
  ) {}

  /** The agent's calls, oldest first; absent or quarantined: none. */
  async read(agent: string): Promise<SpendCall[]> {
    const file = this.paths.spend(agent);
    const r = this.parse(file);
    if (r.kind === 'ok') return r.calls;
    if (r.kind === 'corrupt') {
      await this.journal.quarantineIfStillBad(file, () => {
        const again = this.parse(file);
        return again.kind === 'corrupt' ? again.reason : null;
      });
    }
    return [];
  }

  /** Adds one call; the oldest fall off past MAX_SPEND_CALLS. */
  async append(agent: string, call: SpendCall): Promise<void> {
    const checked = SpendCallSchema.parse(call);
    const file = this.paths.spend(agent);
    ensureDir(this.paths.agentDir(agent));
    await withLock(file, (guard) => {
      const r = this.parse(file);
      if (r.kind === 'corrupt') this.journal.quarantine(file, r.reason);
      const calls = r.kind === 'ok' ? r.calls : [];
      calls.push(checked);
      const kept = calls.slice(-MAX_SPEND_CALLS);
      // Not fsynced: the totals in status.json are the durable record; a power cut may lose a chart point.
      writeFileAtomic(file, JSON.stringify({ calls: kept }), { guard, durable: false });
    }, { journal: this.journal });
  }

  private parse(file: string): Parsed {
    const r = readTextFile(file);
    if (r.kind === 'missing') return r;
    if (r.kind === 'unreadable') return { kind: 'corrupt', reason: r.reason };
    const json = parseJson(r.text);
    if (!json.ok) return { kind: 'corrupt', reason: json.reason };
    const res = SpendFileSchema.safeParse(json.value);
    return res.success ? { kind: 'ok', calls: res.data.calls.slice(-MAX_SPEND_CALLS) } : { kind: 'corrupt', reason: describeIssues(res.error) };
  }
}
