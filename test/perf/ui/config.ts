/** The sizes, caps and targets of npm run bench:ui; BENCH_UI_QUICK=1 makes a shorter run (not recorded). */
export const QUICK = process.env.BENCH_UI_QUICK === '1';
export const CHATS = 2_000;
export const LONG_CHAT_MESSAGES = 20_000;
export const RUNS = QUICK
  ? {
      cold: 2,
      cached: 3,
      switches: 12,
      backAndForth: 6,
      sends: 10,
      polled: 5,
      pushed: 10,
      loopback: 200,
      wheels: 40,
      heapRounds: 3,
    }
  : {
      cold: 5,
      cached: 10,
      switches: 60,
      backAndForth: 30,
      sends: 60,
      polled: 30,
      pushed: 100,
      loopback: 1000,
      wheels: 150,
      heapRounds: 6,
    };
/** The whole benchmark stops by itself after this, whatever happens. */
export const HARD_CAP_MS = 15 * 60_000;
export const FRAME_MS = 1000 / 60;
export const TARGETS = {
  cachedInboxInteractiveMs: 1500,
  switchP95Ms: 100,
  enterToBubbleP95Ms: FRAME_MS,
  eventToRenderedP99: '≤ 5 × loopback HTTP round trip p99 + one frame',
  scrolling: 'bounded DOM rows, no long task over 50 ms',
  heap: 'no monotonic growth across rounds',
};
