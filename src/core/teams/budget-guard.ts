/**
 * A teammate's spending guard: before each model call it weighs the spend recorded in the team's statuses
 * against the limits that apply (budget.ts). At 80 % it tells the lead (a `budget_notice` frame, which the
 * dashboard shows too) and journals it, once per limit; at 100 % it tells again and returns the reason that
 * stops the turn before the next model call. The settings' limits are read afresh each time (a person raises
 * them in settings.json as well as with `thclaws team budget`).
 */
import type { Budgets } from '../../contract/settings-schema.js';
import { loadSettings } from '../agent/settings.js';
import { LEAD, usageOf, type AgentStatus } from '../store/index.js';
import { applicableLimits, evaluateBudget, teamSpend, type BudgetState, type Spend } from '../../contract/budget.js';
import { sendFrame } from './protocol.js';
import type { TeamSession } from './session.js';

function spendOf(st: AgentStatus | null): Spend {
  const u = usageOf(st);
  return u.tokens === null ? { tokens: 0, usd: st?.usage === null ? null : 0 } : { tokens: u.tokens, usd: u.cost_usd };
}

export class BudgetGuard {
  private readonly told = new Set<string>();

  /**
   * `settings`: the settings' budgets now (a reader that fails keeps the last it gave). `priced`: whether this
   * teammate's model has a price; without one its spend counts as unknown from the first call on.
   */
  constructor(
    private readonly session: TeamSession,
    private readonly settings: () => Budgets,
    private readonly print: (line: string) => void,
    private readonly priced: () => boolean = () => true,
    /** Only the agent's own limit (the lead's: the team's limit stops its teammates, and the lead then ends the run). */
    private readonly ownOnly = false,
  ) {}

  async state(): Promise<BudgetState | null> {
    // The usage of the call that just ended is written before it is weighed.
    await this.session.settled();
    const { team: store, me } = this.session;
    const [stored, cfg] = await Promise.all([store.budgets.read(), store.config.load().catch(() => null)]);
    const recovered = store.budgets.notice();
    if (recovered) this.print(`[${me}] ${recovered}`);
    const limits = applicableLimits(stored, this.settings(), me, cfg?.members.find((m) => m.name === me)?.role).filter((l) => !this.ownOnly || l.scope === 'teammate');
    if (!limits.length) return null;
    const read = spendOf(await store.statuses.read(me));
    const own: Spend = this.priced() ? read : { tokens: read.tokens, usd: null };
    const others: Spend[] = [];
    if (limits.some((l) => l.scope === 'team')) {
      for (const name of [LEAD, ...(cfg?.members ?? []).map((m) => m.name)]) {
        if (name !== me) others.push(spendOf(await store.statuses.read(name).catch(() => null)));
      }
    }
    return evaluateBudget(limits, own, teamSpend([own, ...others]), me);
  }

  /** Before a model call: undefined to go on, else why the turn stops here. */
  async check(): Promise<string | undefined> {
    const st = await this.state();
    if (!st || st.level === 'ok') return undefined;
    const key = `${st.level}:${st.scope}:${st.unit}:${st.limit}`;
    if (!this.told.has(key)) {
      this.told.add(key);
      const { team: store, me } = this.session;
      const level = st.level === 'stop' ? 'reached' : 'warning';
      this.print(`[${me}] budget ${level === 'reached' ? 'reached' : 'at 80 %'}: ${st.text}`);
      store.journal.record({ event: 'note', file: store.budgets.file, reason: `budget ${level}: ${st.text}` });
      // The lead is told by its own terminal (the line above); a teammate tells it with a notice.
      if (me !== LEAD) await sendFrame(store, me, LEAD, 'budget_notice', { level, scope: st.scope, unit: st.unit, limit: st.limit, spent: st.spent, summary: `budget ${level}: ${st.text}` }, this.session.epoch).catch(() => undefined);
    }
    return st.level === 'stop' ? `budget reached — ${st.text}` : undefined;
  }
}

/** The settings' budgets as they are now; while the settings cannot be read, the last ones read still hold. */
export function settingsBudgets(projectRoot: string, env: NodeJS.ProcessEnv, initial: Budgets): () => Budgets {
  let last = initial;
  return () => {
    try {
      last = loadSettings(projectRoot, env).settings.budgets;
    } catch {
      // A half-saved or mistyped settings file must not lift a limit: keep the last valid ones.
    }
    return last;
  };
}
