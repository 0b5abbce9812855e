/** Summaries and rounding for bench:ui's report, and a sleep. */
function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;

export function summary(values: readonly number[]): Record<string, number> {
  return {
    n: values.length,
    p50: round(percentile(values, 50)),
    p95: round(percentile(values, 95)),
    p99: round(percentile(values, 99)),
    max: round(Math.max(...values)),
    mean: round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
