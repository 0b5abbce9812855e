/**
 * What the sync engine tells the app about itself (`SyncStatus`): its phase, how far the first sync
 * got, the last error. Being out of reach is the session's reachability's news, not a failed poll's:
 * a request that could not reach the service leaves the phase to it.
 */
import type { SyncStatus } from '../../../shared/domain.ts';
import { isPartnerApiError } from '../api/errors.ts';
import { createLogger } from '../log/logger.ts';
import type { Reachability } from './reachability.ts';

const log = createLogger('sync');

export class SyncStatusBoard {
  #status: SyncStatus = {
    phase: 'idle',
    chatsKnown: 0,
    chatsWithMessages: 0,
    lastSyncedAt: null,
    error: null,
  };
  readonly #listeners = new Set<(status: SyncStatus) => void>();

  get current(): SyncStatus {
    return this.#status;
  }

  /** Called with every status change; returns an unsubscribe. */
  onChange(listener: (status: SyncStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  set(patch: Partial<SyncStatus>): void {
    this.#status = { ...this.#status, ...patch };
    for (const listener of this.#listeners) {
      try {
        listener(this.#status);
      } catch (error) {
        log.error('sync status listener failed', { error: String(error) });
      }
    }
  }

  /** A poll or the first sync failed. */
  failed(error: unknown): void {
    const unreachable =
      isPartnerApiError(error) &&
      (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'tls');
    log.warn('sync failed', { error: error instanceof Error ? error.message : String(error) });
    // The service being out of reach is the reachability's news (it heard this request fail too).
    if (unreachable || this.#status.phase === 'offline') return;
    this.set({ phase: 'error', error: error instanceof Error ? error.message : String(error) });
  }

  /** The reachability changed; returns whether the service is back after being offline. */
  reachabilityChanged(state: Reachability, firstSyncDone: boolean): boolean {
    if (!state.reachable) {
      this.set({ phase: 'offline', error: state.reason });
      return false;
    }
    if (this.#status.phase !== 'offline') return false;
    this.set({ phase: firstSyncDone ? 'incremental' : 'initial', error: null });
    return true;
  }
}
