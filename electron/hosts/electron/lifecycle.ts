/**
 * Process-level behaviour of the Electron host: one instance per user, and a quit that waits for the
 * core to stop cleanly (the outbox keeps unsent jobs persisted, the sync stops, the realtime service
 * deactivates its webhook subscription) before the process exits.
 */
import type { App } from 'electron';
import { createLogger } from '../../core/log/logger.ts';

const log = createLogger('electron-app');

/** Longest a quit waits for the core; past it the app exits anyway (the outbox is durable). */
const STOP_TIMEOUT_MS = 10_000;

/**
 * Takes the single-instance lock. Returns false in a second instance, which should quit at once; the
 * first instance then runs `onSecondLaunch` (bring its window forward).
 */
export function claimSingleInstance(app: App, onSecondLaunch: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => onSecondLaunch());
  return true;
}

/** Runs `stop` once before the app quits, however the quit was asked for (menu, tray, OS, signal). */
export function stopBeforeQuit(app: App, stop: () => Promise<void>): void {
  let state: 'running' | 'stopping' | 'stopped' = 'running';
  app.on('before-quit', (event) => {
    if (state === 'stopped') return;
    event.preventDefault();
    if (state === 'stopping') return;
    state = 'stopping';
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        log.warn('the core did not stop in time; quitting anyway', { timeoutMs: STOP_TIMEOUT_MS });
        resolve();
      }, STOP_TIMEOUT_MS);
    });
    const stopped = stop().catch((error: unknown) =>
      log.error('the core did not stop cleanly', {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    void Promise.race([stopped, deadline]).finally(() => {
      clearTimeout(timer);
      state = 'stopped';
      app.quit();
    });
  });
  // `kill` or Ctrl+C in a terminal: the same clean quit as the menu's.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
}
