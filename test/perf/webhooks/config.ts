/**
 * The sizes and fixed names of npm run bench:webhooks, shared by the parent (the load, the latency
 * runs) and the servers it forks. BENCH_DURATION, BENCH_ROUNDS, BENCH_CONNECTIONS and
 * BENCH_LATENCY_EVENTS change the sizes (a quick run, printed and not recorded).
 */
export const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
export const SECRET = 'whsec_bench_0123456789abcdef';
export const V3_SECRET = `whsec_${Buffer.from('parley-bench-v3-signing-secret!!').toString('base64')}`;
export const PATH = '/hooks/bench/route';
export const LINE = '+14155550100';
export const CHATS = 50;
export const customerOf = (chat: number) => `+1415555${String(2000 + chat).padStart(4, '0')}`;
export const LATENCY_RATE = 200;
export const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 2000);

export type ServerKind =
  'baseline' | 'baseline-v3' | 'listener' | 'listener-receipts' | 'listener-v3' | 'listener-v3-receipts';

/** The sizes a recorded run uses; any of them changed makes a quick run, printed and not recorded. */
export const QUICK_RUN = ['BENCH_DURATION', 'BENCH_ROUNDS', 'BENCH_CONNECTIONS', 'BENCH_LATENCY_EVENTS'].some(
  (name) => process.env[name] !== undefined,
);
