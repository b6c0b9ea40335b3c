import { describe, expect, it } from 'vitest';
import { formatCost, formatTokens, formatUsd } from './format';
import { teamCounts } from './store/team-slice';
import type { Member } from '../contract/api';

const m = (tokens: number | null, cost_usd: number | null): Member => ({
  name: 'a', role: '', model: null, state: 'idle', alive: true, current_task: null, tokens, cost_usd, queued: 0, terminal: { kind: 'readonly', reason: 'r' }, can_respawn: false, waiting_for: null,
});

describe('token and cost display', () => {
  it('distinguishes no call yet (–), an unknown price (?) and a real cost', () => {
    expect(formatTokens(null)).toBe('– tok');
    expect(formatTokens(950)).toBe('950 tok');
    expect(formatTokens(10_830)).toBe('11k tok');
    expect(formatTokens(2_500_000)).toBe('2.5M tok');
    // Rounding never crosses into a unit's overflow ("10.0k", "1000k").
    expect(formatTokens(9_960)).toBe('10k tok');
    expect(formatTokens(999_600)).toBe('1.0M tok');
    expect(formatCost(m(null, null))).toBe('$–');
    expect(formatCost(m(25, null))).toBe('$?');
    expect(formatCost(m(25, 0.0123))).toBe('$0.01');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(0)).toBe('$0.00');
  });

  it('the header total sums known costs and says when one is unknown', () => {
    expect(teamCounts([m(10, 0.5), m(20, 0.25)])).toMatchObject({ costUsd: 0.75, costUnknown: false });
    expect(teamCounts([m(10, 0.5), m(20, null), m(null, null)])).toMatchObject({ costUsd: 0.5, costUnknown: true });
  });
});
