/** How the sync engine paces itself: poll intervals, first-sync page size, concurrency. */
export interface SyncOptions {
  /** How often the open chat is polled. */
  openChatIntervalMs: number;
  /** How often the inbox (chat lists) is polled while webhooks are not live. */
  backgroundIntervalMs: number;
  /** … and while webhooks are live (polling is then only a safety net). */
  liveBackgroundIntervalMs: number;
  /** Every n-th inbox poll walks every page, not only until an unchanged page. */
  fullSweepEvery: number;
  contactsIntervalMs: number;
  /** Messages fetched per chat on first sync (its newest page). */
  firstPageSize: number;
  concurrency: number;
  /** Delay before an open, focused chat is marked read. */
  markReadDelayMs: number;
}

export const DEFAULT_SYNC_OPTIONS: SyncOptions = {
  openChatIntervalMs: 3_000,
  backgroundIntervalMs: 15_000,
  liveBackgroundIntervalMs: 120_000,
  fullSweepEvery: 20,
  contactsIntervalMs: 5 * 60_000,
  firstPageSize: 50,
  concurrency: 6,
  markReadDelayMs: 800,
};
