import { describe, expect, it } from 'vitest';
import { estimateCost, priceFor } from './cost.js';

describe('cost', () => {
  it('uses the longest matching prefix', () => {
    expect(priceFor('claude-opus-4-5-20251101')?.input).toBe(5);
    expect(priceFor('claude-opus-4-1-20250805')?.input).toBe(15);
    expect(priceFor('gpt-4')).toBeUndefined();
  });

  it('prices every token kind', () => {
    const usd = estimateCost('claude-sonnet-4-5', { inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000 });
    expect(usd).toBeCloseTo(3 + 1.5 + 0.3 + 3.75, 6);
    expect(estimateCost('unknown-model', { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBeUndefined();
  });
});
