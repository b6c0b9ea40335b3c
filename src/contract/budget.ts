/**
 * Budget arithmetic, pure: which limits apply to a teammate (its own, its role's, the team's; a limit stored
 * with `thclaws team budget` wins over the settings' at the same level) and how far its spend has gone.
 * A USD limit cannot be judged while a cost is unknown (a model without a price): never treated as spent zero
 * nor skipped (that would make it no limit at all), it counts as reached, and the text says how to go on.
 * The team's USD spend is the sum of the members whose cost is known, a lower bound: it still stops the team
 * once it alone reaches the limit. A member whose own cost is unknown is held by any USD limit that applies
 * to it, the team's included: its share of the team's spend cannot be weighed.
 */
import type { BudgetLimit, Budgets } from './settings-schema.js';

export const BUDGET_WARN_FRACTION = 0.8;

export interface Spend {
  tokens: number;
  /** null: some call's cost is unknown. */
  usd: number | null;
  /** The team's sum: some member's cost is unknown, so `usd` is what is known, a lower bound. */
  partial?: boolean;
}

export type BudgetScope = 'teammate' | 'role' | 'team';

export interface BudgetState {
  level: 'ok' | 'warn' | 'stop';
  scope: BudgetScope;
  /** The limit that is furthest gone. */
  unit: 'usd' | 'tokens';
  limit: number;
  spent: number;
  fraction: number;
  /** One line: `backend's budget: $0.0420 of $0.0500 (84 %)`. */
  text: string;
  /** A USD limit over a spend whose cost is unknown: reached, since it cannot be judged. */
  unknown?: true;
}

export interface ApplicableLimit {
  scope: BudgetScope;
  limit: BudgetLimit;
}

function byRole(roles: Readonly<Record<string, BudgetLimit>>, role: string | null | undefined): BudgetLimit | undefined {
  const want = (role ?? '').trim().toLowerCase();
  if (!want) return undefined;
  return Object.entries(roles).find(([r]) => r.trim().toLowerCase() === want)?.[1];
}

export function applicableLimits(stored: Budgets, settings: Budgets, agent: string, role: string | null | undefined): ApplicableLimit[] {
  const out: ApplicableLimit[] = [];
  // Own keys only: a teammate named `constructor` has no limit from Object.prototype.
  const own = (Object.hasOwn(stored.teammates, agent) ? stored.teammates[agent] : undefined) ?? (Object.hasOwn(settings.teammates, agent) ? settings.teammates[agent] : undefined);
  if (own) out.push({ scope: 'teammate', limit: own });
  const r = byRole(stored.roles, role) ?? byRole(settings.roles, role);
  if (r) out.push({ scope: 'role', limit: r });
  const team = stored.team ?? settings.team;
  if (team) out.push({ scope: 'team', limit: team });
  return out;
}

/** The most consumed of the limits; `own` counts for teammate and role limits, `team` for the team's. */
export function evaluateBudget(limits: ApplicableLimit[], own: Spend, team: Spend, agent: string): BudgetState | null {
  let worst: BudgetState | null = null;
  for (const { scope, limit } of limits) {
    const spend = scope === 'team' ? team : own;
    // This agent's own unknown cost is part of the team's too: the team's USD limit cannot weigh it either.
    const usd = spend.usd === null || own.usd === null ? null : spend.usd;
    const candidates: Array<['usd' | 'tokens', number, number]> = [];
    if (limit.tokens !== undefined) candidates.push(['tokens', limit.tokens, spend.tokens]);
    if (limit.usd !== undefined && usd !== null) candidates.push(['usd', limit.usd, usd]);
    const whose = scope === 'team' ? "the team's budget" : scope === 'role' ? `${agent}'s role budget` : `${agent}'s budget`;
    if (limit.usd !== undefined && usd === null && !worst?.unknown && !(worst && worst.fraction > 1)) {
      // Reached: a person decides (a token budget instead, or no USD limit), never an unlimited run on `$?`.
      const why = own.usd === null ? `${agent}'s model has no price` : 'a model without a price';
      const text = `${whose}: $? of $${limit.usd.toFixed(4)} (${why}: its cost is unknown, so a USD limit cannot be judged; set a token budget instead)`;
      worst = { level: 'stop', scope, unit: 'usd', limit: limit.usd, spent: 0, fraction: 1, text, unknown: true };
    }
    for (const [unit, max, spent] of candidates) {
      const fraction = spent / max;
      if (worst && worst.fraction >= fraction) continue;
      const level = fraction >= 1 ? 'stop' : fraction >= BUDGET_WARN_FRACTION ? 'warn' : 'ok';
      const fmt = (n: number) => (unit === 'usd' ? `$${n.toFixed(4)}` : `${Math.round(n).toLocaleString('en-US')} tokens`);
      const atLeast = unit === 'usd' && spend.partial ? 'at least ' : '';
      const note = atLeast ? '; some members have no price, their cost is not counted' : '';
      worst = { level, scope, unit, limit: max, spent, fraction, text: `${whose}: ${atLeast}${fmt(spent)} of ${fmt(max)} (${Math.floor(fraction * 100)} %${note})` };
    }
  }
  return worst;
}

/** The team's spend: every member's tokens; in USD the sum of the known costs, `partial` if any is unknown. */
export function teamSpend(members: Iterable<Spend>): Spend {
  let tokens = 0;
  let usd = 0;
  let partial = false;
  for (const s of members) {
    tokens += s.tokens;
    if (s.usd === null) partial = true;
    else usd += s.usd;
  }
  return partial ? { tokens, usd, partial } : { tokens, usd };
}
