/** Small helpers shared by the bench sections. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(values: number[]): { n: number; p50: number; p99: number; max: number; mean: number } {
  const s = [...values].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  return { n: s.length, p50: percentile(s, 50), p99: percentile(s, 99), max: s[s.length - 1] ?? Number.NaN, mean };
}

export const round = (v: number, digits = 2): number => Number(v.toFixed(digits));
