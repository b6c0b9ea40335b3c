import { describe, expect, it } from 'vitest';
import { estimateCost, priceFor } from './cost.js';

describe('cost', () => {
  it('prices the current models, a dated id by its base, and nothing for an unknown model', () => {
    expect(priceFor('claude-sonnet-5-5')).toEqual({ input: 2, output: 10, cacheWrite: 2.5, cacheRead: 0.2 });
    expect(priceFor('claude-opus-4-6')?.input).toBe(5);
    expect(priceFor('claude-haiku-4-5-20251001')?.input).toBe(1);
    expect(priceFor('gpt-4')).toBeUndefined();
  });

  it('prices every token kind', () => {
    const usd = estimateCost('claude-sonnet-5-5', { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000 });
    expect(usd).toBeCloseTo(2 + 1 + 0.2 + 2.5, 6);
    expect(estimateCost('unknown-model', { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBeUndefined();
  });
});
