/**
 * `budgets.json` in the team dir: the team's spending limits set by `thclaws team budget` and the dashboard
 * (per teammate, per role, for the team). They override the settings' `budgets` at the same level. Written
 * under its lock, atomically; a corrupt file is quarantined and reads as no limits.
 */
import path from 'node:path';
import { BudgetLimitSchema, BudgetsSchema, type BudgetLimit, type Budgets } from '../agent/settings-schema.js';
import { parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import type { Journal } from './journal.js';
import { withLock } from './lock.js';
import { assertAgentName } from './names.js';
import { describeIssues } from './schemas.js';
import { TeamError } from './errors.js';

export type BudgetTarget = { team: true } | { agent: string } | { role: string };

export class TeamBudgets {
  readonly file: string;

  constructor(
    dir: string,
    private readonly journal: Journal,
  ) {
    this.file = path.join(dir, 'budgets.json');
  }

  /** The stored limits; absent or quarantined: none. */
  async read(): Promise<Budgets> {
    const r = this.parse();
    if (r.kind === 'ok') return r.budgets;
    if (r.kind === 'corrupt') {
      await this.journal.quarantineIfStillBad(this.file, () => {
        const again = this.parse();
        return again.kind === 'corrupt' ? again.reason : null;
      });
    }
    return BudgetsSchema.parse({});
  }

  /** Sets (or with null removes) one limit, keeping every other. */
  async set(target: BudgetTarget, limit: BudgetLimit | null): Promise<Budgets> {
    if (limit) {
      const res = BudgetLimitSchema.safeParse(limit);
      if (!res.success) throw new TeamError('invalid', `invalid budget: ${describeIssues(res.error)}`);
    }
    if ('agent' in target) assertAgentName(target.agent);
    if ('role' in target && !/^[^\0\n]{1,64}$/.test(target.role.trim())) throw new TeamError('invalid', 'invalid role name');
    return withLock(this.file, (guard) => {
      const r = this.parse();
      if (r.kind === 'corrupt') this.journal.quarantine(this.file, r.reason);
      const b = r.kind === 'ok' ? r.budgets : BudgetsSchema.parse({});
      if ('team' in target) b.team = limit;
      else {
        const table = 'agent' in target ? b.teammates : b.roles;
        const key = 'agent' in target ? target.agent : target.role.trim();
        if (limit) table[key] = limit;
        else delete table[key];
      }
      writeFileAtomic(this.file, JSON.stringify(b, null, 2), { guard });
      return b;
    }, { journal: this.journal });
  }

  private parse(): { kind: 'ok'; budgets: Budgets } | { kind: 'missing' } | { kind: 'corrupt'; reason: string } {
    const r = readTextFile(this.file);
    if (r.kind === 'missing') return r;
    if (r.kind === 'unreadable') return { kind: 'corrupt', reason: r.reason };
    const json = parseJson(r.text);
    if (!json.ok) return { kind: 'corrupt', reason: json.reason };
    const res = BudgetsSchema.safeParse(json.value);
    return res.success ? { kind: 'ok', budgets: res.data } : { kind: 'corrupt', reason: describeIssues(res.error) };
  }
}
