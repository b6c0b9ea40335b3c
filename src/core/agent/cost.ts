/** Estimated cost of a model's token usage, from the list prices of the model table. */
import { modelInfo, type Price } from './models.js';
import type { Usage } from './providers/types.js';

export function priceFor(model: string): Price | undefined {
  return modelInfo(model)?.price;
}

/** USD, or undefined for a model without a known price. */
export function estimateCost(model: string, usage: Usage): number | undefined {
  const p = priceFor(model);
  if (!p) return undefined;
  const usd =
    (usage.inputTokens * p.input +
      usage.outputTokens * p.output +
      usage.cacheWriteTokens * p.cacheWrite +
      usage.cacheReadTokens * p.cacheRead) /
    1_000_000;
  return Math.round(usd * 1e6) / 1e6;
}
