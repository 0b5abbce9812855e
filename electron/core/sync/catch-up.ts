/**
 * How a chat's sync converges on what the service has, whatever the app missed (issue #20): a
 * delivery refused at the listener (V3 never retries a 4xx), one that could not be recorded (a full
 * disk), a tunnel outage, or a message posted while the app was restarting.
 *
 * Asking only for messages newer than the newest one stored cannot see a message missed behind it
 * (the agent's later sends are newer). So a chat whose listing changed is read newest first, page by
 * page, until a page holds a message already stored (matched by the service's id, not by time) and
 * reaches back past the last point at which the whole inbox was known to be in step: the start of
 * the last inbox poll that finished. Everything before that point was stored by that poll (or an
 * earlier one); whatever went missing after it was sent after it, and the walk reaches it.
 */
import type { StorageStatus } from '../../../shared/contract/errors.ts';
import type { CallOptions } from '../api/http.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { MessagingService } from './messaging.ts';
import type { Reconciler } from './reconciler.ts';

/** Where the store remembers the in-step point across restarts (sync_cursors). */
const IN_STEP_CURSOR = 'sync:in-step-since';
/** The row a storage probe writes. */
const STORAGE_PROBE_CURSOR = 'sync:storage-probe';

/**
 * Slack on the in-step point: the service stamps messages by its clock, the point is taken by this
 * machine's, and a message may be listed a little after the time it carries.
 */
const CLOCK_SLACK_MS = 5 * 60_000;

/** The last point at which every chat's messages were known to be stored (ms, this machine's clock). */
export class InStepMark {
  readonly #store: LocalStore;
  #since: number | null;

  constructor(store: LocalStore) {
    this.#store = store;
    const saved = Number(store.cursors.get(IN_STEP_CURSOR));
    this.#since = Number.isFinite(saved) && saved > 0 ? saved : null;
  }

  /** How far back (service time) a gap check must reach; null before any poll finished here. */
  get reachBack(): number | null {
    return this.#since === null ? null : this.#since - CLOCK_SLACK_MS;
  }

  /** A poll that started at `startedAt` finished: everything sent before then is stored. */
  advance(startedAt: number): void {
    if (this.#since !== null && startedAt <= this.#since) return;
    this.#since = startedAt;
    this.#store.cursors.set(IN_STEP_CURSOR, String(startedAt));
  }
}

export interface GapCheck {
  api: MessagingService;
  store: LocalStore;
  reconciler: Reconciler;
  pageSize: number;
  /** Service time the walk must reach back past (InStepMark.reachBack); null: overlap alone. */
  reachBack: number | null;
  call: CallOptions;
}

/**
 * Reads a chat's messages newest first and stores every page, until a page overlaps the stored
 * messages (by id) and reaches back past `reachBack`, or the history ends. Returns the pages read.
 */
export async function fillGaps(chatId: number, check: GapCheck): Promise<number> {
  const { api, store, reconciler, reachBack } = check;
  let read = 0;
  for await (const page of api.messagePages(chatId, check.pageSize, check.call)) {
    read++;
    // One transaction: a V3 page's ids are mapped as it is first read, and commit with its messages.
    const overlaps = store.transaction(() => {
      const stored = page.messages.some((m) => store.messages.chatOf(m.id) !== undefined);
      reconciler.applyMessages(chatId, page.messages, page.complete ? { historyComplete: true } : undefined);
      return stored;
    });
    const oldest = page.messages.at(-1)?.sentAt ?? Number.NEGATIVE_INFINITY;
    if (page.complete || (overlaps && (reachBack === null || oldest < reachBack))) break;
  }
  return read;
}

/**
 * Calls `recovered` once the store can write again after disk trouble (`storage.status`). Nothing
 * but a write can tell when it can, so while it cannot, a one-row write is tried every `probeMs`.
 * Returns a function that stops watching.
 */
export function onStorageRecovered(store: LocalStore, recovered: () => void, probeMs = 2_000): () => void {
  let probe: ReturnType<typeof setInterval> | undefined;
  const stopProbing = (): void => {
    clearInterval(probe);
    probe = undefined;
  };
  const changed = ({ problem }: StorageStatus): void => {
    if (problem !== null) {
      probe ??= setInterval(() => {
        try {
          store.cursors.set(STORAGE_PROBE_CURSOR, String(Date.now()));
        } catch {
          // Still refused: the store has said so already.
        }
      }, probeMs);
      probe.unref?.();
      return;
    }
    if (probe === undefined) return;
    stopProbing();
    recovered();
  };
  const unwatch = store.events.on('storage.status', changed);
  changed(store.storageStatus); // trouble met before this watch began
  return () => {
    unwatch();
    stopProbing();
  };
}
