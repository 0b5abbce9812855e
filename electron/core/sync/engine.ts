import type { SyncStatus } from '../../../shared/domain.ts';
import { isPartnerApiError } from '../api/errors.ts';
import { pages } from '../api/pagination.ts';
import type { ContactsPort, MessagingService } from './messaging.ts';
import { createLogger } from '../log/logger.ts';
import type { LocalStore } from '../store/local-store.ts';
import { abortable, forEachLimited } from '../util.ts';
import { fillGaps, InStepMark, onStorageRecovered } from './catch-up.ts';
import type { Reachability, ServiceReachability } from './reachability.ts';
import { Reconciler } from './reconciler.ts';

const log = createLogger('sync');

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

const INITIAL_DONE = 'initial-sync-done';
const MAX_OFFLINE_BACKOFF_MS = 60_000;
/** A catch-up poll waits this long for the moment's other news, and starts at most this often. */
const CATCH_UP_DELAY_MS = 500;
const CATCH_UP_SPACING_MS = 3_000;

/**
 * Keeps the local store in step with the service by polling. First sync: lines → every chat of every
 * line → the newest page of messages per chat, newest chats first, so the inbox is useful early.
 * Then: the open chat often, the inbox less (much less while webhooks are live), pending messages
 * with backoff until they settle, contacts now and then. Every result goes through the reconciler.
 * A chat whose listing changed is read back until it meets what is stored (catch-up.ts), and a
 * delivery that may have been missed (refused, not recorded, a gap in live events, a full disk
 * that has cleared) brings the next inbox poll forward to within seconds.
 */
export class SyncEngine {
  readonly reconciler: Reconciler;
  readonly #store: LocalStore;
  /** Contacts (V2's API whatever the workspace's version, or the relay's). */
  readonly #contacts: ContactsPort;
  /** Chats, messages and lines, through the workspace's API version. */
  readonly #api: MessagingService;
  /** The revision each chat was listed with, until its messages are synced (see applyChats). */
  readonly #revisions = new Map<number, number>();
  readonly #inStep: InStepMark;
  readonly #options: SyncOptions;
  readonly #abort = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #ready = false;
  #openChat: { chatId: number; focused: boolean } | null = null;
  #markReadTimer: ReturnType<typeof setTimeout> | undefined;
  #webhooksLive = false;
  /** Off on a relay that does not hold the polling lease: another relay of the team polls. */
  #polling = true;
  #inboxPolls = 0;
  #fullSweepNext = false;
  #due = { openChat: 0, inbox: 0, contacts: 0 };
  #pendingChecks = new Map<string, { at: number; delay: number }>();
  #offlineBackoff = 0;
  /** When the last inbox poll started (catch-up polls are spaced from it). */
  #inboxPolledAt = 0;
  readonly #unwatchStorage: () => void;
  readonly #statusListeners = new Set<(status: SyncStatus) => void>();
  #status: SyncStatus = {
    phase: 'idle',
    chatsKnown: 0,
    chatsWithMessages: 0,
    lastSyncedAt: null,
    error: null,
  };

  /**
   * `reachability` (the session's) decides the 'offline' phase: it follows every request's outcome,
   * so the engine's own ticks neither set nor clear it.
   */
  constructor(
    store: LocalStore,
    contacts: ContactsPort,
    api: MessagingService,
    options: Partial<SyncOptions> = {},
    reachability?: ServiceReachability,
  ) {
    this.#store = store;
    this.#contacts = contacts;
    this.#api = api;
    this.#options = { ...DEFAULT_SYNC_OPTIONS, ...options };
    this.reconciler = new Reconciler(store);
    this.#inStep = new InStepMark(store);
    reachability?.onChange((state) => this.#reachabilityChanged(state));
    // The store can write again (disk trouble cleared): what it refused meanwhile is caught up now.
    this.#unwatchStorage = onStorageRecovered(store, () => {
      if (this.#ready && !this.#signal.aborted) this.syncNow();
    });
  }

  get status(): SyncStatus {
    return this.#status;
  }

  /** Called with every status change; returns an unsubscribe. */
  onStatus(listener: (status: SyncStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** How often the inbox is polled now: slower while webhooks are live. */
  get inboxIntervalMs(): number {
    return this.#webhooksLive ? this.#options.liveBackgroundIntervalMs : this.#options.backgroundIntervalMs;
  }

  get #signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Starts syncing in the background; resolves when the first sync (or the resume) has finished. */
  start(options: { resumeAfter?: Promise<unknown> } = {}): Promise<void> {
    this.#running ??= this.#run(options.resumeAfter);
    return this.#running;
  }

  /** Whether a first sync has finished here before: the inbox on disk is the service's, give or take the time away. */
  get hasCachedInbox(): boolean {
    return this.#store.cursors.get(INITIAL_DONE) !== undefined;
  }

  async stop(): Promise<void> {
    this.#abort.abort(new Error('sync stopped'));
    this.#unwatchStorage();
    clearTimeout(this.#timer);
    clearTimeout(this.#markReadTimer);
    await this.#running?.catch(() => undefined);
  }

  /** The chat the user is looking at: polled often, and marked read while focused. */
  setOpenChat(chatId: number | null, focused = true): void {
    this.#openChat = chatId === null ? null : { chatId, focused };
    this.#due.openChat = 0;
    this.#scheduleMarkRead();
    this.#wake();
  }

  setWebhooksLive(live: boolean): void {
    if (this.#webhooksLive === live) return;
    this.#webhooksLive = live;
    // Going live: what was posted before the subscription delivered again (a restart, an outage) is
    // fetched right away. Falling back to polling: look at the inbox now, then at the faster pace.
    if (live) return this.catchUpSoon();
    this.#due.inbox = 0;
    this.#wake();
  }

  /**
   * Whether this engine polls the service after its first sync (on by default). A team relay without
   * the polling lease turns it off; reads asked of it (refreshChat, loadOlder) still go out.
   */
  setPolling(enabled: boolean): void {
    if (this.#polling === enabled) return;
    this.#polling = enabled;
    if (enabled) this.syncNow();
  }

  /**
   * A delivery may have been missed (the listener refused it or could not record it): the inbox is
   * polled within a second or so (at most every few seconds, whatever the flood), and every chat
   * that changed is read back until it meets what is stored.
   */
  catchUpSoon(): void {
    const at = Math.max(Date.now() + CATCH_UP_DELAY_MS, this.#inboxPolledAt + CATCH_UP_SPACING_MS);
    if (at >= this.#due.inbox) return;
    this.#due.inbox = at;
    this.#wake();
  }

  /** New polling intervals (the user changed them in settings). */
  configure(intervals: Partial<Pick<SyncOptions, 'openChatIntervalMs' | 'backgroundIntervalMs'>>): void {
    Object.assign(this.#options, intervals);
    this.#due.openChat = 0;
    this.#due.inbox = Math.min(this.#due.inbox, Date.now() + this.#options.backgroundIntervalMs);
    this.#wake();
  }

  /** Re-checks this message's delivery status soon (after a send). */
  watchDelivery(messageKey: string): void {
    this.#pendingChecks.set(messageKey, { at: Date.now() + 1_000, delay: 1_000 });
    this.#wake();
  }

  /** Fetches older history of a chat from the service (`before` the oldest stored message). */
  async loadOlder(chatId: number, count = 50): Promise<{ added: number; complete: boolean }> {
    const oldest = this.#store.messages.oldestSentAt(chatId);
    const page = await this.#api.olderMessages(chatId, oldest, count, {
      signal: this.#signal,
      priority: 'user',
    });
    const complete = page.complete;
    this.reconciler.applyMessages(chatId, page.messages, complete ? { historyComplete: true } : undefined);
    return { added: page.messages.length, complete };
  }

  /** Fetches a chat and its newest messages now (a webhook named it, or the user opened it). */
  async refreshChat(chatId: number): Promise<void> {
    const chat = await this.#api.chat(chatId, { signal: this.#signal, priority: 'user' });
    if (chat) {
      this.reconciler.applyChat(chat);
      this.#noteRevisions([chat]);
    }
    await this.#fetchNewest(chatId, 'user');
  }

  /**
   * Live events were lost beyond recovery (a joined desktop away longer than the relay's log keeps
   * them): the next poll, due now, walks every page of every line and reads back each changed chat.
   */
  resync(): void {
    this.#fullSweepNext = true;
    this.syncNow();
  }

  /** Polls everything now (the user asked, or the network came back). */
  syncNow(): void {
    this.#due = { openChat: 0, inbox: 0, contacts: this.#due.contacts };
    this.#wake();
  }

  async #run(resumeAfter: Promise<unknown> | undefined): Promise<void> {
    try {
      // Catching up waits while the cached inbox is being shown (the answer to its listing comes first).
      if (resumeAfter && this.hasCachedInbox) await abortable(resumeAfter, this.#signal);
      await this.#api.prepare(this.#bg());
      if (!this.hasCachedInbox) {
        await this.#initialSync();
      } else {
        this.#setStatus({ phase: 'incremental' });
        if (this.#polling) await this.#pollInbox(false);
      }
    } catch (error) {
      if (this.#signal.aborted) return;
      this.#failed(error);
    }
    this.#ready = true;
    for (const { key } of this.#store.messages.unsettled()) this.watchDelivery(key);
    this.#wake();
  }

  async #initialSync(): Promise<void> {
    const startedAt = Date.now();
    this.#setStatus({ phase: 'initial', error: null });
    await this.#syncLines();
    // Contacts first (a few pages): the first chats on screen show names, not numbers.
    await this.#syncContacts();
    this.#store.pauseIndexing();
    const queue: number[] = [];
    let producing = true;
    let chatsWithMessages = 0;
    // Chats stream in page by page while workers fetch their newest messages in arrival order.
    const producer = (async () => {
      try {
        await forEachLimited(this.#store.lines.list(), 3, async (line) => {
          for await (const page of this.#api.chatPages(line, this.#bg())) {
            this.#noteRevisions(page);
            queue.push(...this.reconciler.applyChats(page, line));
            this.#setStatus({ chatsKnown: this.#store.chats.count() });
          }
        });
      } finally {
        producing = false;
      }
    })();
    const workers = Array.from({ length: this.#options.concurrency }, async () => {
      while (producing || queue.length > 0) {
        const chatId = queue.shift();
        if (chatId === undefined) {
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        await this.#fetchNewest(chatId, 'background');
        this.#setStatus({ chatsWithMessages: ++chatsWithMessages });
      }
    });
    await Promise.all([producer, ...workers]);
    this.#store.resumeIndexing();
    this.#store.cursors.set(INITIAL_DONE, String(Date.now()));
    this.#inStep.advance(startedAt);
    this.#setStatus({ phase: 'incremental', lastSyncedAt: Date.now() });
  }

  async #syncLines(): Promise<void> {
    this.reconciler.applyLines(await this.#api.lines(this.#bg()));
  }

  /** The newest page of a chat: new messages, edits, reactions, statuses, and local deletions. */
  async #fetchNewest(chatId: number, priority: 'user' | 'background'): Promise<void> {
    const expected = this.#expectedRevision(chatId);
    const requestedAt = Date.now();
    const page = await this.#api.newestMessages(chatId, this.#options.firstPageSize, {
      signal: this.#signal,
      priority,
    });
    this.#store.transaction(() => {
      this.reconciler.applyMessages(chatId, page.messages, {
        ...(expected === undefined ? {} : { syncedMessageCount: expected }),
        ...(page.complete ? { historyComplete: true } : {}),
      });
      // Stored messages the service no longer lists within the page's time range were deleted.
      const oldest = page.messages.at(-1);
      const since = page.complete ? -Infinity : (oldest?.sentAt ?? Infinity);
      const listed = new Set(page.messages.map((m) => m.id));
      const gone = this.#store.messages.unlisted(chatId, since, listed, requestedAt);
      this.#store.messages.remove(chatId, gone);
    });
  }

  /** A changed chat: read back from its newest page until it meets what is stored (catch-up.ts). */
  async #fillGaps(chatId: number): Promise<void> {
    if (this.#store.messages.newestSentAt(chatId) === null) return this.#fetchNewest(chatId, 'background');
    const expected = this.#expectedRevision(chatId);
    await fillGaps(chatId, {
      api: this.#api,
      store: this.#store,
      reconciler: this.reconciler,
      pageSize: this.#options.firstPageSize,
      reachBack: this.#inStep.reachBack,
      call: this.#bg(),
    });
    if (expected !== undefined) this.#store.chats.setSyncState(chatId, { syncedMessageCount: expected });
    // Fewer on the service than here means deletions (V2 counts): the newest page tells which.
    if (
      this.#api.revisionCountsMessages &&
      expected !== undefined &&
      this.#store.messages.countAccepted(chatId) > expected
    ) {
      await this.#fetchNewest(chatId, 'background');
    }
  }

  /** Lists chats per line, newest activity first, until a page with no change (all pages on a sweep). */
  async #pollInbox(fullSweep: boolean): Promise<void> {
    const startedAt = Date.now();
    this.#inboxPolledAt = startedAt;
    await this.#syncLines();
    const changed: number[] = [];
    for (const line of this.#store.lines.list()) {
      for await (const page of this.#api.chatPages(line, this.#bg())) {
        this.#noteRevisions(page);
        const moved = this.reconciler.applyChats(page, line);
        changed.push(...moved);
        if (!fullSweep && moved.length === 0) break;
      }
    }
    await forEachLimited(changed, this.#options.concurrency, (chatId) => this.#fillGaps(chatId));
    this.#inStep.advance(startedAt);
    this.#setStatus({
      chatsKnown: this.#store.chats.count(),
      lastSyncedAt: Date.now(),
      phase: 'incremental',
      error: null,
    });
  }

  async #syncContacts(): Promise<void> {
    const seen = new Set<number>();
    for await (const page of pages((r) => this.#contacts.list(r, this.#bg()), {
      perPage: 100,
      signal: this.#signal,
    })) {
      this.reconciler.applyContacts(page.items);
      for (const c of page.items) seen.add(c.id);
    }
    this.#store.transaction(() => this.#store.contacts.retainOnly(seen));
  }

  async #checkPending(now: number): Promise<void> {
    const due = [...this.#pendingChecks].filter(([, check]) => check.at <= now).map(([key]) => key);
    await forEachLimited(due, this.#options.concurrency, async (key) => {
      const message = this.#store.messages.get(key);
      const check = this.#pendingChecks.get(key);
      if (!message || message.id === null || !check) return void this.#pendingChecks.delete(key);
      const fresh = await this.#api.message(message.chatId, message.id, this.#bg());
      this.reconciler.applyMessages(message.chatId, [fresh.record]);
      if (!fresh.settled) {
        const delay = Math.min(check.delay * 2, 60_000);
        this.#pendingChecks.set(key, { at: Date.now() + delay, delay });
      } else {
        this.#pendingChecks.delete(key);
      }
    });
  }

  /** Does whatever is due; resolves whether anything was (a tick that asked nothing proves nothing). */
  async #tick(): Promise<boolean> {
    if (!this.#polling) return false;
    const now = Date.now();
    const open = this.#openChat;
    let worked = false;
    if (open && now >= this.#due.openChat) {
      this.#due.openChat = now + this.#options.openChatIntervalMs;
      worked = true;
      await this.#fetchNewest(open.chatId, 'background');
    }
    if (now >= this.#due.inbox) {
      this.#due.inbox =
        now +
        (this.#webhooksLive ? this.#options.liveBackgroundIntervalMs : this.#options.backgroundIntervalMs);
      worked = true;
      try {
        const fullSweep = this.#fullSweepNext || ++this.#inboxPolls % this.#options.fullSweepEvery === 0;
        this.#fullSweepNext = false;
        await this.#pollInbox(fullSweep);
      } catch (error) {
        // Tried again after the loop's backoff, not an interval away: a failed poll caught nothing up.
        this.#due.inbox = 0;
        throw error;
      }
    }
    if (now >= this.#due.contacts) {
      this.#due.contacts = now + this.#options.contactsIntervalMs;
      worked = true;
      await this.#syncContacts();
    }
    if ([...this.#pendingChecks.values()].some((check) => check.at <= now)) worked = true;
    await this.#checkPending(now);
    return worked;
  }

  #wake(): void {
    // Until the first sync (or the resume) has finished, it owns the network: no ticks in between.
    if (this.#signal.aborted || !this.#ready) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#loop(), 0);
  }

  #ticking = false;
  async #loop(): Promise<void> {
    if (this.#ticking || this.#signal.aborted) return;
    this.#ticking = true;
    let wait = 1_000;
    try {
      const worked = await this.#tick();
      this.#offlineBackoff = 0;
      // Only requests that went through clear an error; 'offline' is the reachability's to clear.
      if (worked && this.#status.phase === 'error') this.#setStatus({ phase: 'incremental', error: null });
    } catch (error) {
      if (this.#signal.aborted) return;
      this.#failed(error);
      this.#offlineBackoff = Math.min(Math.max(this.#offlineBackoff * 2, 2_000), MAX_OFFLINE_BACKOFF_MS);
      wait = this.#offlineBackoff;
    } finally {
      this.#ticking = false;
    }
    if (this.#signal.aborted) return;
    const nextDue = Math.min(
      this.#openChat ? this.#due.openChat : Infinity,
      this.#due.inbox,
      this.#due.contacts,
      ...[...this.#pendingChecks.values()].map((c) => c.at),
    );
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => void this.#loop(),
      Math.max(wait === 1_000 ? nextDue - Date.now() : wait, 50),
    );
    this.#timer.unref?.();
  }

  #scheduleMarkRead(): void {
    clearTimeout(this.#markReadTimer);
    const open = this.#openChat;
    if (!open?.focused) return;
    this.#markReadTimer = setTimeout(() => void this.#markRead(open.chatId), this.#options.markReadDelayMs);
    this.#markReadTimer.unref?.();
  }

  async #markRead(chatId: number): Promise<void> {
    const chat = this.#store.chats.get(chatId);
    if (!chat || (chat.unreadCount === 0 && !chat.markedUnread)) return;
    try {
      if (chat.unreadCount > 0) await this.#api.markRead(chatId, { signal: this.#signal, priority: 'user' });
      this.#store.transaction(() => {
        this.#store.messages.markChatRead(chatId);
        this.#store.chats.setFlags(chatId, { markedUnread: false });
      });
    } catch (error) {
      log.warn('mark as read failed', { chatId, error: String(error) });
    }
  }

  /** New inbound messages in the open, focused chat are read as they arrive. */
  noteIncoming(chatId: number): void {
    if (this.#openChat?.chatId === chatId && this.#openChat.focused) this.#scheduleMarkRead();
  }

  /** What a chat's messages are synced up to once fetched: the revision it was last listed with. */
  #expectedRevision(chatId: number): number | undefined {
    const listed = this.#revisions.get(chatId);
    if (listed !== undefined) return listed;
    return this.#api.revisionCountsMessages ? this.#store.chats.syncState(chatId)?.messageCount : undefined;
  }

  #noteRevisions(chats: ReadonlyArray<{ id: number; revision?: number }>): void {
    for (const chat of chats) {
      if (chat.revision === undefined) this.#revisions.delete(chat.id);
      else this.#revisions.set(chat.id, chat.revision);
    }
  }

  #bg(): { signal: AbortSignal; priority: 'background' } {
    return { signal: this.#signal, priority: 'background' };
  }

  #failed(error: unknown): void {
    const unreachable =
      isPartnerApiError(error) &&
      (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'tls');
    log.warn('sync failed', { error: error instanceof Error ? error.message : String(error) });
    // The service being out of reach is the reachability's news (it heard this request fail too).
    if (unreachable || this.#status.phase === 'offline') return;
    this.#setStatus({ phase: 'error', error: error instanceof Error ? error.message : String(error) });
  }

  #reachabilityChanged(state: Reachability): void {
    if (!state.reachable) {
      this.#setStatus({ phase: 'offline', error: state.reason });
    } else if (this.#status.phase === 'offline') {
      this.#setStatus({ phase: this.#ready ? 'incremental' : 'initial', error: null });
      // Back: catch up on whatever happened meanwhile instead of waiting out the backoff.
      if (this.#ready) this.syncNow();
    }
  }

  #setStatus(patch: Partial<SyncStatus>): void {
    this.#status = { ...this.#status, ...patch };
    for (const listener of this.#statusListeners) {
      try {
        listener(this.#status);
      } catch (error) {
        log.error('sync status listener failed', { error: String(error) });
      }
    }
  }
}
