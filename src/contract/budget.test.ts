import { describe, expect, it } from 'vitest';
import { BudgetsSchema } from './settings-schema.js';
import { applicableLimits, evaluateBudget, teamSpend } from './budget.js';

const b = (v: unknown) => BudgetsSchema.parse(v);

describe('budget arithmetic', () => {
  it('a stored limit wins over the settings at its level; roles match ignoring case and spaces; the team limit counts the team', () => {
    const settings = b({ team: { usd: 10 }, roles: { ' Reviewer ': { tokens: 1000 } }, teammates: { alice: { usd: 1 } } });
    const stored = b({ teammates: { alice: { usd: 2 } } });
    const limits = applicableLimits(stored, settings, 'alice', 'reviewer');
    expect(limits).toEqual([{ scope: 'teammate', limit: { usd: 2 } }, { scope: 'role', limit: { tokens: 1000 } }, { scope: 'team', limit: { usd: 10 } }]);
    // The furthest-gone limit decides: 850 of 1000 role tokens (85 %) beats $1.50 of $2 (75 %).
    expect(evaluateBudget(limits, { tokens: 850, usd: 1.5 }, { tokens: 0, usd: 3 }, 'alice')).toMatchObject({ level: 'warn', scope: 'role', unit: 'tokens', fraction: 0.85 });
    expect(evaluateBudget(limits, { tokens: 10, usd: 0.1 }, { tokens: 0, usd: 10 }, 'alice')).toMatchObject({ level: 'stop', scope: 'team', text: "the team's budget: $10.0000 of $10.0000 (100 %)" });
    expect(evaluateBudget(limits, { tokens: 10, usd: 0.1 }, { tokens: 0, usd: 1 }, 'alice')!.level).toBe('ok');
  });

  it('an unknown cost never passes a USD limit as spent zero nor as no limit: it is reached until a person changes it', () => {
    const limits = applicableLimits(b({}), b({ teammates: { bob: { usd: 1, tokens: 100 } } }), 'bob', null);
    expect(evaluateBudget(limits, { tokens: 10, usd: null }, { tokens: 0, usd: 0 }, 'bob')).toMatchObject({ level: 'stop', unit: 'usd', unknown: true });
    expect(evaluateBudget(limits, { tokens: 10, usd: 0.1 }, { tokens: 0, usd: 0 }, 'bob')).toMatchObject({ level: 'ok' });
    const usdOnly = applicableLimits(b({}), b({ team: { usd: 5 } }), 'bob', null);
    expect(evaluateBudget(usdOnly, { tokens: 10, usd: 0 }, { tokens: 10, usd: null }, 'bob')!.text).toBe(
      "the team's budget: $? of $5.0000 (a model without a price: its cost is unknown, so a USD limit cannot be judged; set a token budget instead)",
    );
    // A token limit past 100 % still says by how much.
    expect(evaluateBudget(limits, { tokens: 150, usd: null }, { tokens: 0, usd: 0 }, 'bob')).toMatchObject({ level: 'stop', unit: 'tokens', fraction: 1.5 });
    expect(() => b({ team: {} })).toThrow(/usd or tokens/);
  });

  it("one member without a price does not switch off the team's USD limit: the known costs are a lower bound", () => {
    const limits = applicableLimits(b({ team: { usd: 1 } }), b({}), 'alice', null);
    // The lead ($5, priced) and bob (unpriced) together: at least $5 of $1.
    const team = teamSpend([{ tokens: 1000, usd: 5 }, { tokens: 10, usd: null }, { tokens: 20, usd: 0 }]);
    expect(team).toEqual({ tokens: 1030, usd: 5, partial: true });
    expect(evaluateBudget(limits, { tokens: 20, usd: 0 }, team, 'alice')).toMatchObject({
      level: 'stop',
      scope: 'team',
      unit: 'usd',
      text: "the team's budget: at least $5.0000 of $1.0000 (500 %; some members have no price, their cost is not counted)",
    });
    // Under the limit the priced members go on, and the text says the figure is a lower bound.
    const low = teamSpend([{ tokens: 1000, usd: 0.5 }, { tokens: 10, usd: null }]);
    expect(evaluateBudget(limits, { tokens: 0, usd: 0 }, low, 'alice')).toMatchObject({ level: 'ok', text: expect.stringContaining('at least $0.5000') });
    // The unpriced member itself cannot be weighed against the team's USD limit: held, with the reason.
    expect(evaluateBudget(limits, { tokens: 10, usd: null }, low, 'bob')).toMatchObject({ level: 'stop', unknown: true, text: expect.stringContaining("bob's model has no price") });
    expect(teamSpend([{ tokens: 1, usd: 0.25 }, { tokens: 2, usd: 0.5 }])).toEqual({ tokens: 3, usd: 0.75 });
  });
});
