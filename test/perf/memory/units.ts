/** Small helpers bench:memory and its probes share: time, rounding, a trend. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;
export const mb = (bytes: number): number => round(bytes / 1024 / 1024, 1);
export const wallNow = (): number => performance.timeOrigin + performance.now();

/** Least-squares slope of y over x. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  return sxx === 0 ? Number.NaN : sxy / sxx;
}
