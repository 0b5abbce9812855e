import type { ApiVersion } from '../../../shared/domain.ts';
import type { ServiceSession, SessionOptions } from '../session.ts';
import type { WorkspaceSyncSettings } from '../settings/index.ts';
import type { AppCoreOptions } from './core-options.ts';

/**
 * What a workspace's session opens with: its folder, its API version, the poll intervals its
 * settings say (the host's overrides for tests and benchmarks on top), the host's reachability.
 */
export function sessionOptionsOf(
  dataDir: string,
  apiVersion: ApiVersion,
  sync: WorkspaceSyncSettings,
  host: Pick<AppCoreOptions, 'sync' | 'reachability'>,
): Omit<SessionOptions, 'connection'> {
  return {
    dataDir,
    apiVersion,
    sync: {
      openChatIntervalMs: sync.pollIntervalMs,
      backgroundIntervalMs: sync.backgroundPollIntervalMs,
      ...host.sync,
    },
    ...(host.reachability ? { reachability: host.reachability } : {}),
  };
}

/**
 * A session's start-up gate: a cached inbox is listed for the page before the sync catches up and
 * live events start, which would otherwise compete with that first answer. `passed` resolves once
 * `open()` is called (the page listed the inbox, and the rest of its first calls, queued behind that
 * one, are answered), or after `waitMs` without a page; at once without a cached inbox (a first sync
 * is what fills it).
 */
export function inboxGate(session: ServiceSession, waitMs: number): { passed: Promise<void>; open(): void } {
  if (!session.sync.hasCachedInbox) return { passed: Promise.resolve(), open: () => undefined };
  let open = (): void => undefined;
  const passed = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    open = () => {
      open = () => undefined;
      clearTimeout(timer);
      setTimeout(resolve, 0);
    };
  });
  return { passed, open: () => open() };
}

/** The poll intervals a session runs at. */
export interface SyncIntervals {
  pollIntervalMs: number;
  backgroundPollIntervalMs: number;
}

export function intervalsOf(sync: SyncIntervals): SyncIntervals {
  return { pollIntervalMs: sync.pollIntervalMs, backgroundPollIntervalMs: sync.backgroundPollIntervalMs };
}

function sameIntervals(a: SyncIntervals, b: SyncIntervals): boolean {
  return a.pollIntervalMs === b.pollIntervalMs && a.backgroundPollIntervalMs === b.backgroundPollIntervalMs;
}

/**
 * Follows the poll intervals the settings now say. Only when they changed: reconfiguring polls the
 * open chat at once, and most writes (the agent's place, saved as they scroll) are not about sync.
 * Returns the intervals the session runs at now.
 */
export function followIntervals(
  session: ServiceSession,
  current: SyncIntervals | undefined,
  next: SyncIntervals,
): SyncIntervals {
  if (current && sameIntervals(current, next)) return current;
  session.sync.configure({
    openChatIntervalMs: next.pollIntervalMs,
    backgroundIntervalMs: next.backgroundPollIntervalMs,
  });
  return next;
}
