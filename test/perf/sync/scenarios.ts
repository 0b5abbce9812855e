/**
 * The scenarios of npm run bench:sync: the sandbox's limit and the client's budget of each, the seed
 * (BENCH_SYNC_SEED) and the caps.
 */
export const DEFAULT_SEED = 'bulk:5000x50';
export const SEED = process.env.BENCH_SYNC_SEED ?? DEFAULT_SEED;
/** The whole benchmark stops by itself after this, whatever happens. */
export const HARD_CAP_MS = 10 * 60_000;
/** One scenario's client gives up after this. */
export const CLIENT_CAP_MS = 5 * 60_000;
export const FIRST_N = 50;

export interface Scenario {
  name: string;
  what: string;
  /** The sandbox's per-token bucket. */
  sandbox: { rate: number; burst: number };
  /** The client budget's setting; null = left at the product default (50/s, burst 100). */
  client: { rate: number; burst: number } | null;
  /** The workspace's API version (default v2). */
  apiVersion?: 'v2' | 'v3';
  /** V3 scenarios: the V2 scenario it is set beside in the report. */
  v2?: string;
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'binding-100',
    what: 'service limit 100/s burst 100; client budget configured to the same (the product setting for a known limit)',
    sandbox: { rate: 100, burst: 100 },
    client: { rate: 100, burst: 100 },
  },
  {
    name: 'default-budget',
    what: 'service limit 100/s burst 100; client budget left at its default (50/s, burst 100)',
    sandbox: { rate: 100, burst: 100 },
    client: null,
  },
  {
    name: 'unlimited',
    what: "no binding limit (service and client budget at 10^8/s): the client's own ceiling",
    sandbox: { rate: 100_000_000, burst: 100_000_000 },
    client: { rate: 100_000_000, burst: 100_000_000 },
  },
  {
    name: 'overconfigured',
    what: 'service limit 50/s burst 100; client budget configured to 100/s burst 100 (too high): 429s and adaptation',
    sandbox: { rate: 50, burst: 100 },
    client: { rate: 100, burst: 100 },
  },
  {
    name: 'v3-binding-100',
    what: 'as binding-100, through the V3 API (cursor pages, UUIDs mapped to local ids; contacts on V2)',
    sandbox: { rate: 100, burst: 100 },
    client: { rate: 100, burst: 100 },
    apiVersion: 'v3',
    v2: 'binding-100',
  },
  {
    name: 'v3-unlimited',
    what: "as unlimited, through the V3 API: the client's own ceiling when it maps V3 pages",
    sandbox: { rate: 100_000_000, burst: 100_000_000 },
    client: { rate: 100_000_000, burst: 100_000_000 },
    apiVersion: 'v3',
    v2: 'unlimited',
  },
];
