/**
 * Reading the service's listings into the store: lines, contacts, and every line's chats — the
 * first sync (newest chats first, their newest messages fetched as they stream in, so the inbox is
 * useful early) and an inbox poll (until a page with no change, or every page on a full sweep,
 * then each changed chat read back until it meets what is stored). The sync engine decides when;
 * this knows how, as `chat-reader.ts` does for one chat.
 */
import { pages } from '../api/pagination.ts';
import type { LocalStore } from '../store/local-store.ts';
import { forEachLimited } from '../util.ts';
import type { InStepMark } from './catch-up.ts';
import type { ChatReader } from './chat-reader.ts';
import type { ContactsPort, MessagingService } from './messaging.ts';
import type { Reconciler } from './reconciler.ts';
import type { SyncStatusBoard } from './sync-status.ts';

/** The cursor a finished first sync leaves: the inbox on disk is the service's, give or take the time away. */
const FIRST_SYNC_DONE = 'initial-sync-done';

export interface InboxReaderParts {
  store: LocalStore;
  /** Contacts (V2's API whatever the workspace's version, or the relay's). */
  contacts: ContactsPort;
  /** Chats, messages and lines, through the workspace's API version. */
  api: MessagingService;
  reconciler: Reconciler;
  chats: ChatReader;
  inStep: InStepMark;
  statusBoard: SyncStatusBoard;
  /** Chats read at once. */
  concurrency: number;
  signal: AbortSignal;
}

export class InboxReader {
  readonly #parts: InboxReaderParts;

  constructor(parts: InboxReaderParts) {
    this.#parts = parts;
  }

  get firstSyncDone(): boolean {
    return this.#parts.store.cursors.get(FIRST_SYNC_DONE) !== undefined;
  }

  /** Lines → every chat of every line → the newest page of messages per chat, newest chats first. */
  async firstSync(): Promise<void> {
    const { store, api, reconciler, chats, inStep, statusBoard, concurrency } = this.#parts;
    const startedAt = Date.now();
    statusBoard.set({ phase: 'initial', error: null });
    await this.syncLines();
    // Contacts beside the chats, not before them: a chat names its handles by the contacts stored
    // when it is read (each contact stored re-announces the chats it names), so the first chats show
    // as soon as their page is in, and their names as soon as the contacts' first page is.
    const contacts = this.syncContacts();
    store.pauseIndexing();
    const queue: number[] = [];
    let producing = true;
    let chatsWithMessages = 0;
    // Chats stream in page by page while workers fetch their newest messages in arrival order.
    const producer = (async () => {
      try {
        await forEachLimited(store.lines.list(), 3, async (line) => {
          for await (const page of api.chatPages(line, this.#bg())) {
            chats.noteRevisions(page);
            queue.push(...reconciler.applyChats(page, line, { previews: true }));
            statusBoard.set({ chatsKnown: store.chats.count() });
          }
        });
      } finally {
        producing = false;
      }
    })();
    const workers = Array.from({ length: concurrency }, async () => {
      while (producing || queue.length > 0) {
        const chatId = queue.shift();
        if (chatId === undefined) {
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        await chats.fetchNewest(chatId, 'background');
        statusBoard.set({ chatsWithMessages: ++chatsWithMessages });
      }
    });
    await Promise.all([producer, ...workers, contacts]);
    store.resumeIndexing();
    store.cursors.set(FIRST_SYNC_DONE, String(Date.now()));
    inStep.advance(startedAt);
    statusBoard.set({ phase: 'incremental', lastSyncedAt: Date.now() });
  }

  async syncLines(): Promise<void> {
    this.#parts.reconciler.applyLines(await this.#parts.api.lines(this.#bg()));
  }

  /** Lists chats per line, newest activity first, until a page with no change (all pages on a sweep). */
  async pollInbox(fullSweep: boolean): Promise<void> {
    const { store, api, reconciler, chats, inStep, statusBoard, concurrency } = this.#parts;
    const startedAt = Date.now();
    await this.syncLines();
    const changed: number[] = [];
    for (const line of store.lines.list()) {
      for await (const page of api.chatPages(line, this.#bg())) {
        chats.noteRevisions(page);
        const moved = reconciler.applyChats(page, line);
        changed.push(...moved);
        if (!fullSweep && moved.length === 0) break;
      }
    }
    await forEachLimited(changed, concurrency, (chatId) => chats.fillGaps(chatId));
    inStep.advance(startedAt);
    statusBoard.set({
      chatsKnown: store.chats.count(),
      lastSyncedAt: Date.now(),
      phase: 'incremental',
      error: null,
    });
  }

  /** Every contact page; contacts the service no longer lists are dropped. */
  async syncContacts(): Promise<void> {
    const { store, contacts, reconciler, signal } = this.#parts;
    const seen = new Set<number>();
    for await (const page of pages((r) => contacts.list(r, this.#bg()), { perPage: 100, signal })) {
      reconciler.applyContacts(page.items);
      for (const c of page.items) seen.add(c.id);
    }
    store.transaction(() => store.contacts.retainOnly(seen));
  }

  #bg(): { signal: AbortSignal; priority: 'background' } {
    return { signal: this.#parts.signal, priority: 'background' };
  }
}
