/**
 * Reading one chat's messages from the service into the store: its newest page (with the local
 * deletions it reveals), older history, a gap check that reads back until it meets what is stored
 * (catch-up.ts), and the revision each chat was listed with, which says what its messages are
 * synced up to once read. The sync engine decides when; this knows how.
 */
import type { LocalStore } from '../store/local-store.ts';
import { fillGaps, type InStepMark } from './catch-up.ts';
import type { MessagingService } from './messaging.ts';
import type { Reconciler } from './reconciler.ts';

export interface ChatReaderParts {
  store: LocalStore;
  api: MessagingService;
  reconciler: Reconciler;
  inStep: InStepMark;
  /** Messages a page (the newest page of a chat on first sync). */
  pageSize: number;
  signal: AbortSignal;
}

export class ChatReader {
  readonly #parts: ChatReaderParts;
  /** The revision each chat was listed with, until its messages are synced (see applyChats). */
  readonly #revisions = new Map<number, number>();
  /** Pages waiting for their shared transaction (#writeTogether). */
  readonly #writes: Array<{ write: () => void; resolve: () => void; reject: (error: unknown) => void }> = [];

  constructor(parts: ChatReaderParts) {
    this.#parts = parts;
  }

  /** Up to `count` messages older than the oldest stored one. */
  async loadOlder(chatId: number, count: number): Promise<{ added: number; complete: boolean }> {
    const { store, api, reconciler, signal } = this.#parts;
    const oldest = store.messages.oldestSentAt(chatId);
    const page = await api.olderMessages(chatId, oldest, count, { signal, priority: 'user' });
    const complete = page.complete;
    reconciler.applyMessages(chatId, page.messages, complete ? { historyComplete: true } : undefined);
    return { added: page.messages.length, complete };
  }

  /** The chat and its newest messages, now (a webhook named it, or the user opened it). */
  async refresh(chatId: number): Promise<void> {
    const { api, reconciler, signal } = this.#parts;
    const chat = await api.chat(chatId, { signal, priority: 'user' });
    if (chat) {
      reconciler.applyChat(chat);
      this.noteRevisions([chat]);
    }
    await this.fetchNewest(chatId, 'user');
  }

  /** The newest page of a chat: new messages, edits, reactions, statuses, and local deletions. */
  async fetchNewest(chatId: number, priority: 'user' | 'background'): Promise<void> {
    const { store, api, reconciler, signal, pageSize } = this.#parts;
    const expected = this.#expectedRevision(chatId);
    const requestedAt = Date.now();
    const page = await api.newestMessages(chatId, pageSize, { signal, priority });
    await this.#writeTogether(() => {
      reconciler.applyMessages(chatId, page.messages, {
        ...(expected === undefined ? {} : { syncedMessageCount: expected }),
        ...(page.complete ? { historyComplete: true } : {}),
      });
      // Stored messages the service no longer lists within the page's time range were deleted.
      const oldest = page.messages.at(-1);
      const since = page.complete ? -Infinity : (oldest?.sentAt ?? Infinity);
      const listed = new Set(page.messages.map((m) => m.id));
      reconciler.applyMessagesGone(chatId, store.messages.unlisted(chatId, since, listed, requestedAt));
    });
  }

  /**
   * Dates to the millisecond the messages a V2 delivery dated to the second (sync/time-settling.ts):
   * reads the chat newest first until none is left, or a page reaches back before the second of the
   * oldest of them, or the history ends. One the walk passed without the service listing it (deleted
   * there since) keeps the delivery's time and is not read for again.
   */
  async settleTimes(chatId: number): Promise<void> {
    const { store, api, reconciler, signal, pageSize } = this.#parts;
    const oldest = store.messages.oldestTimeToSettle(chatId);
    if (oldest === null) return;
    const startedAt = Date.now();
    for await (const page of api.messagePages(chatId, pageSize, { signal, priority: 'background' })) {
      reconciler.applyMessages(chatId, page.messages, page.complete ? { historyComplete: true } : undefined);
      if (store.messages.oldestTimeToSettle(chatId) === null) return;
      const reached = page.messages.at(-1)?.sentAt ?? Number.NEGATIVE_INFINITY;
      if (page.complete || reached < oldest) {
        store.messages.stopSettlingTimes(chatId, oldest, startedAt);
        return;
      }
    }
  }

  /**
   * Runs `write` in a transaction shared with the other pages that arrived in the same turn of the
   * event loop (a reply that answers many chats at once: relay/newest-pages.ts), resolving once it
   * has committed: a commit costs more than a page. If the shared one fails, each write goes alone,
   * so only the one that fails fails.
   */
  #writeTogether(write: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#writes.push({ write, resolve, reject });
      // After every continuation of this turn has run (the microtask queue drained), before I/O.
      if (this.#writes.length === 1) process.nextTick(() => this.#commitWrites());
    });
  }

  #commitWrites(): void {
    const { store } = this.#parts;
    const writes = this.#writes.splice(0);
    try {
      store.transaction(() => writes.forEach(({ write }) => write()));
    } catch {
      for (const { write, resolve, reject } of writes) {
        try {
          store.transaction(write);
          resolve();
        } catch (error) {
          reject(error);
        }
      }
      return;
    }
    for (const { resolve } of writes) resolve();
  }

  /** A changed chat: read back from its newest page until it meets what is stored (catch-up.ts). */
  async fillGaps(chatId: number): Promise<void> {
    const { store, api, reconciler, signal, pageSize, inStep } = this.#parts;
    if (store.messages.newestSentAt(chatId) === null) return this.fetchNewest(chatId, 'background');
    const expected = this.#expectedRevision(chatId);
    await fillGaps(chatId, {
      api,
      store,
      reconciler,
      pageSize,
      reachBack: inStep.reachBack,
      call: { signal, priority: 'background' },
    });
    if (expected !== undefined) store.chats.setSyncState(chatId, { syncedMessageCount: expected });
    // Fewer on the service than here means deletions (V2 counts): the newest page tells which.
    if (
      api.revisionCountsMessages &&
      expected !== undefined &&
      store.messages.countAccepted(chatId) > expected
    ) {
      await this.fetchNewest(chatId, 'background');
    }
  }

  /** Remembers the revisions chats were listed with (undefined: unknown, always read again). */
  noteRevisions(chats: ReadonlyArray<{ id: number; revision?: number }>): void {
    for (const chat of chats) {
      if (chat.revision === undefined) this.#revisions.delete(chat.id);
      else this.#revisions.set(chat.id, chat.revision);
    }
  }

  /** What a chat's messages are synced up to once fetched: the revision it was last listed with. */
  #expectedRevision(chatId: number): number | undefined {
    const { store, api } = this.#parts;
    const listed = this.#revisions.get(chatId);
    if (listed !== undefined) return listed;
    return api.revisionCountsMessages ? store.chats.syncState(chatId)?.messageCount : undefined;
  }
}
