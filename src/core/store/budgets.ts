/**
 * `budgets.json` in the team dir: the team's spending limits set by `thclaws team budget` and the dashboard
 * (per teammate, per role, for the team). They override the settings' `budgets` at the same level. Written
 * under its lock, atomically. A file that does not parse (a hand edit's typo) never lifts a limit: it is
 * quarantined and replaced by the last valid limits (this process's last read, else the copy kept in
 * `budgets.last-valid.json`), and the journal and `notice()` say so.
 */
import path from 'node:path';
import { BudgetLimitSchema, BudgetsSchema, type BudgetLimit, type Budgets } from '../../contract/settings-schema.js';
import { parseJson, readTextFile, writeFileAtomic } from './fsio.js';
import type { Journal } from './journal.js';
import { withLock, type LockGuard } from './lock.js';
import { assertAgentName, assertRoleName } from './names.js';
import { BUDGET_KEY_PATTERN } from '../../contract/limits.js';
import { describeIssues } from '../../contract/store-schemas.js';
import { TeamError } from './errors.js';

export type BudgetTarget = { team: true } | { agent: string } | { role: string };

export class TeamBudgets {
  readonly file: string;
  /** The last valid limits, kept for a later corrupt read (one copy per team, written when they change). */
  readonly validFile: string;
  private lastValid: Budgets | null = null;
  private savedValid: string | null = null;
  private recovered: string | null = null;

  constructor(
    dir: string,
    private readonly journal: Journal,
  ) {
    this.file = path.join(dir, 'budgets.json');
    this.validFile = path.join(dir, 'budgets.last-valid.json');
  }

  /** The stored limits; absent: none; corrupt: the last valid ones, restored (see `notice()`). */
  async read(): Promise<Budgets> {
    const r = this.parse();
    if (r.kind === 'ok') return this.remember(r.budgets);
    if (r.kind === 'missing') return BudgetsSchema.parse({});
    return withLock(this.file, (guard) => this.recover(guard) ?? BudgetsSchema.parse({}), { journal: this.journal });
  }

  /** One line saying a corrupt file was replaced by the last valid limits since the last call, else null. */
  notice(): string | null {
    const n = this.recovered;
    this.recovered = null;
    return n;
  }

  /**
   * Sets (or with null removes) one limit, keeping every other. `merge`: the units not given keep their value
   * (setting tokens keeps a USD limit at the same target).
   */
  async set(target: BudgetTarget, limit: BudgetLimit | null, opts: { merge?: boolean } = {}): Promise<Budgets> {
    if (limit) {
      const res = BudgetLimitSchema.safeParse(limit);
      if (!res.success) throw new TeamError('invalid', `invalid budget: ${describeIssues(res.error)}`);
    }
    const key = 'team' in target ? '' : 'agent' in target ? assertAgentName(target.agent) : assertRoleName(target.role);
    if ('agent' in target && !BUDGET_KEY_PATTERN.test(key)) throw new TeamError('invalid', `invalid teammate name ${JSON.stringify(key)} for a budget: "__proto__" cannot hold one`);
    return withLock(this.file, (guard) => {
      const b = this.recover(guard) ?? BudgetsSchema.parse({});
      const table = 'team' in target ? null : 'agent' in target ? b.teammates : b.roles;
      const before = table ? (Object.hasOwn(table, key) ? table[key] : undefined) : b.team;
      const next = limit && opts.merge && before ? { ...before, ...limit } : limit;
      if (!table) b.team = next;
      else if (next) table[key] = next;
      else delete table[key];
      writeFileAtomic(this.file, JSON.stringify(b, null, 2), { guard });
      return this.remember(b);
    }, { journal: this.journal });
  }

  /**
   * Under the file's lock: the limits now, with a corrupt file moved aside and the last valid limits written
   * in its place (null: no file and nothing valid known).
   */
  private recover(guard: LockGuard): Budgets | null {
    const r = this.parse();
    if (r.kind === 'ok') return this.remember(r.budgets);
    if (r.kind === 'missing') return null;
    const movedTo = this.journal.quarantine(this.file, r.reason);
    const kept = this.lastValid ?? this.readValidCopy();
    if (kept) writeFileAtomic(this.file, JSON.stringify(kept, null, 2), { guard });
    const what = kept ? 'the last valid limits are kept' : 'no valid limits were ever read: none apply';
    this.recovered = `budgets.json is invalid (${r.reason})${movedTo ? `: moved to ${path.basename(movedTo)}` : ''}; ${what}`;
    this.journal.record({ event: 'note', file: this.file, reason: this.recovered });
    return kept;
  }

  private remember(b: Budgets): Budgets {
    this.lastValid = b;
    const text = JSON.stringify(b, null, 2);
    if (text !== this.savedValid) {
      // A copy for processes that start after the file went bad; losing it only loses that fallback.
      try {
        writeFileAtomic(this.validFile, text, false);
        this.savedValid = text;
      } catch {
        // read-only team dir: this process's memory still holds them
      }
    }
    return b;
  }

  private readValidCopy(): Budgets | null {
    const r = readTextFile(this.validFile);
    if (r.kind !== 'ok') return null;
    const json = parseJson(r.text);
    const res = json.ok ? BudgetsSchema.safeParse(json.value) : null;
    return res?.success ? res.data : null;
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
