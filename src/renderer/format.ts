/** How tokens and cost read in the dashboard: compact, and never a made-up 0 for an unknown price. */
import type { Member } from '../contract/api';

export function formatTokens(n: number | null): string {
  if (n === null) return '– tok';
  if (n < 1000) return `${n} tok`;
  // Thresholds where the rounded figure would read "10.0k" or "1000k".
  if (n < 999_500) return `${(n / 1000).toFixed(n < 9_950 ? 1 : 0)}k tok`;
  return `${(n / 1_000_000).toFixed(1)}M tok`;
}

export function formatUsd(usd: number): string {
  return usd > 0 && usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

/** `$–` before the first call, `$?` when the model has no known price. */
export function formatCost(m: Pick<Member, 'tokens' | 'cost_usd'>): string {
  if (m.tokens === null) return '$–';
  return m.cost_usd === null ? '$?' : formatUsd(m.cost_usd);
}

export function usageTitle(m: Pick<Member, 'usage' | 'tokens'>): string {
  const u = m.usage;
  if (!u) return 'tokens / cost: no model call yet';
  const f = (n: number) => n.toLocaleString('en-US');
  return `input ${f(u.input_tokens)} · output ${f(u.output_tokens)} · cache write ${f(u.cache_creation_input_tokens)} · cache read ${f(u.cache_read_input_tokens)}`;
}
