/** Estimated cost of a model's token usage, from list prices in USD per million tokens. */
import type { Usage } from './providers/types.js';

interface Price {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** Longest prefix wins; cache write = 1.25× input (5-minute TTL), cache read = 0.1× input. */
const PRICES: Array<[prefix: string, price: Price]> = [
  ['claude-opus-4-5', { input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 }],
  ['claude-opus-4', { input: 15, output: 75, cacheWrite: 18.75, cacheRead: 1.5 }],
  ['claude-sonnet-4', { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ['claude-3-7-sonnet', { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ['claude-3-5-sonnet', { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 }],
  ['claude-haiku-4', { input: 1, output: 5, cacheWrite: 1.25, cacheRead: 0.1 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4, cacheWrite: 1, cacheRead: 0.08 }],
  ['claude-3-haiku', { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheRead: 0.03 }],
];

export function priceFor(model: string): Price | undefined {
  let best: [string, Price] | undefined;
  for (const entry of PRICES) {
    if (model.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}

/** USD, or undefined for a model without a known price (and 0 for the scripted provider's models). */
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
