/** Rounding for bench:sync's report. */
export const round = (n: number, digits = 0): number => Math.round(n * 10 ** digits) / 10 ** digits;
export const mb = (bytes: number): number => round(bytes / 2 ** 20, 1);
