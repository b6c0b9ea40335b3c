/**
 * Attack: a team USD budget when one member runs on a model without a price (a provider profile's model
 * missing from its table). Uses the store (real files) for the statuses and the same arithmetic the
 * teammate's BudgetGuard uses (budget.ts + the team sum of budget-guard.ts).
 * Run: npx tsx attacks/budget-unknown-price.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applicableLimits, evaluateBudget, type Spend } from '../src/core/teams/budget.js';
import { TeamStore, usageOf } from '../src/core/store/index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'budget-unknown-'));
const store = new TeamStore(path.join(dir, '.thclaws/state/team'));
store.init();
await store.config.create({ name: 't', members: [{ name: 'alice', model: 'claude-sonnet-5-5' }, { name: 'bob', model: 'local/unpriced' }] });
const u = (n: number) => ({ input_tokens: n, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
// The lead and alice are priced and have spent $40 together; bob's one call has no known price.
await store.statuses.account('lead', u(1000), 25);
await store.statuses.account('alice', u(1000), 15);
await store.statuses.account('bob', u(10), null);
await store.budgets.set({ team: true }, { usd: 10 });

// The team sum exactly as budget-guard.ts computes it.
const spendOf = (st: Awaited<ReturnType<typeof store.statuses.read>>): Spend => {
  const x = usageOf(st);
  return x.tokens === null ? { tokens: 0, usd: st?.usage === null ? null : 0 } : { tokens: x.tokens, usd: x.cost_usd };
};
const team: Spend = { tokens: 0, usd: 0 };
for (const name of ['lead', 'alice', 'bob']) {
  const s = spendOf(await store.statuses.read(name));
  team.tokens += s.tokens;
  team.usd = team.usd === null || s.usd === null ? null : team.usd + s.usd;
}
const limits = applicableLimits(await store.budgets.read(), { team: undefined, roles: {}, teammates: {} } as never, 'alice', null);
const st = evaluateBudget(limits, spendOf(await store.statuses.read('alice')), team, 'alice');
console.log('known spend of the team: $40 (lead $25 + alice $15) against a $10 team limit');
console.log('alice\'s BudgetGuard state:', JSON.stringify(st));
console.log(st?.level === 'stop' ? 'HELD: alice is stopped' : 'DEFECT: alice keeps running — the team USD limit is off while bob\'s cost is unknown');
fs.rmSync(dir, { recursive: true, force: true });
