/** Estimated cost of a model's token usage, from the list prices of the model table. */
import { knownModels, modelInfo, type Price } from '../../contract/models.js';
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

/** The dearest rate of each kind across the model table: what no listed model charges more than. */
function ceilingPrice(): Price {
  const out: Price = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  for (const m of knownModels()) {
    const p = modelInfo(m)?.price;
    if (p) for (const k of Object.keys(out) as Array<keyof Price>) out[k] = Math.max(out[k], p[k]);
  }
  return out;
}

/**
 * An upper bound for usage at an unknown price: each kind of token at the dearest rate of the model table.
 * Where a number is required (the Agent SDK's `total_cost_usd`), this is the honest one: never too low.
 */
export function ceilingCost(usage: Usage): number {
  const p = ceilingPrice();
  const usd = (usage.inputTokens * p.input + usage.outputTokens * p.output + usage.cacheWriteTokens * p.cacheWrite + usage.cacheReadTokens * p.cacheRead) / 1_000_000;
  return Math.ceil(usd * 1e6) / 1e6;
}
