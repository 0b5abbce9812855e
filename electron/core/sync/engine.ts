import type { SyncStatus } from '../../../shared/domain.ts';
import type { ContactsPort, MessagingService } from './messaging.ts';
import type { LocalStore } from '../store/local-store.ts';
import { abortable } from '../util.ts';
import { InStepMark, onStorageRecovered } from './catch-up.ts';
import type { Reachability, ServiceReachability } from './reachability.ts';
import { Reconciler } from './reconciler.ts';
import { ChatReader } from './chat-reader.ts';
import { InboxReader } from './inbox-reader.ts';
import { DeliveryWatch } from './delivery-watch.ts';
import { TimeSettling } from './time-settling.ts';
import { SyncStatusBoard } from './sync-status.ts';
import { ReadMarker } from './read-marker.ts';
import { DEFAULT_SYNC_OPTIONS, type SyncOptions } from './sync-options.ts';

export { DEFAULT_SYNC_OPTIONS, type SyncOptions } from './sync-options.ts';

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
  /** Chats, messages and lines, through the workspace's API version. */
  readonly #api: MessagingService;
  /** The revision each chat was listed with, until its messages are synced (see applyChats). */
  readonly #chats: ChatReader;
  /** Lines, contacts and every line's chats: the first sync and the inbox polls. */
  readonly #inbox: InboxReader;
  readonly #inStep: InStepMark;
  readonly #options: SyncOptions;
  readonly #abort = new AbortController();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #ready = false;
  #openChat: { chatId: number; focused: boolean } | null = null;
  readonly #readMarker: ReadMarker;
  #webhooksLive = false;
  /** Off on a relay that does not hold the polling lease: another relay of the team polls. */
  #polling = true;
  #inboxPolls = 0;
  #fullSweepNext = false;
  #due = { openChat: 0, inbox: 0, contacts: 0 };
  readonly #deliveries = new DeliveryWatch();
  readonly #times = new TimeSettling();
  #offlineBackoff = 0;
  /** When the last inbox poll started (catch-up polls are spaced from it). */
  #inboxPolledAt = 0;
  readonly #unwatchStorage: () => void;
  readonly #statusBoard = new SyncStatusBoard();

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
    this.#api = api;
    this.#options = { ...DEFAULT_SYNC_OPTIONS, ...options };
    this.reconciler = new Reconciler(store);
    this.#inStep = new InStepMark(store);
    this.#chats = new ChatReader({
      store,
      api,
      reconciler: this.reconciler,
      inStep: this.#inStep,
      pageSize: this.#options.firstPageSize,
      signal: this.#abort.signal,
    });
    this.#inbox = new InboxReader({
      store,
      contacts,
      api,
      reconciler: this.reconciler,
      chats: this.#chats,
      inStep: this.#inStep,
      statusBoard: this.#statusBoard,
      concurrency: this.#options.concurrency,
      signal: this.#abort.signal,
    });
    this.#readMarker = new ReadMarker(store, api, this.#options.markReadDelayMs, this.#abort.signal);
    this.reconciler.onTimesToSettle((chatId) => this.#settleTimesSoon(chatId));
    reachability?.onChange((state) => this.#reachabilityChanged(state));
    // The store can write again (disk trouble cleared): what it refused meanwhile is caught up now.
    this.#unwatchStorage = onStorageRecovered(store, () => {
      if (this.#ready && !this.#signal.aborted) this.syncNow();
    });
  }

  get status(): SyncStatus {
    return this.#statusBoard.current;
  }

  /** Called with every status change; returns an unsubscribe. */
  onStatus(listener: (status: SyncStatus) => void): () => void {
    return this.#statusBoard.onChange(listener);
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
    return this.#inbox.firstSyncDone;
  }

  async stop(): Promise<void> {
    this.#abort.abort(new Error('sync stopped'));
    this.#unwatchStorage();
    clearTimeout(this.#timer);
    this.#readMarker.stop();
    await this.#running?.catch(() => undefined);
  }

  /** The chat the user is looking at: polled often, and marked read while focused. */
  setOpenChat(chatId: number | null, focused = true): void {
    this.#openChat = chatId === null ? null : { chatId, focused };
    this.#due.openChat = 0;
    this.#readMarker.setOpen(this.#openChat);
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
    this.#deliveries.watch(messageKey);
    this.#wake();
  }

  /** Fetches older history of a chat from the service (`before` the oldest stored message). */
  loadOlder(chatId: number, count = 50): Promise<{ added: number; complete: boolean }> {
    return this.#chats.loadOlder(chatId, count);
  }

  /** Fetches a chat and its newest messages now (a webhook named it, or the user opened it). */
  refreshChat(chatId: number): Promise<void> {
    return this.#chats.refresh(chatId);
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
        await this.#inbox.firstSync();
        // Its contacts were just read: not again at the first tick (a team joining at once: 20 × all).
        this.#due.contacts = Date.now() + this.#options.contactsIntervalMs;
      } else {
        this.#statusBoard.set({ phase: 'incremental' });
        if (this.#polling) await this.#pollInbox(false);
      }
    } catch (error) {
      if (this.#signal.aborted) return;
      this.#statusBoard.failed(error);
    }
    this.#ready = true;
    for (const { key } of this.#store.messages.unsettled()) this.watchDelivery(key);
    for (const chatId of this.#store.messages.chatsWithTimesToSettle()) this.#times.note(chatId);
    this.#wake();
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
      await this.#chats.fetchNewest(open.chatId, 'background');
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
      await this.#inbox.syncContacts();
    }
    if (this.#times.isDue(now)) {
      worked = true;
      await this.#times.settleDue(now, this.#chats, this.#options.concurrency);
    }
    if (this.#deliveries.isDue(now)) worked = true;
    await this.#deliveries.checkDue(
      now,
      { store: this.#store, api: this.#api, reconciler: this.reconciler },
      this.#bg(),
      this.#options.concurrency,
    );
    return worked;
  }

  #pollInbox(fullSweep: boolean): Promise<void> {
    this.#inboxPolledAt = Date.now();
    return this.#inbox.pollInbox(fullSweep);
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
      if (worked && this.#statusBoard.current.phase === 'error')
        this.#statusBoard.set({ phase: 'incremental', error: null });
    } catch (error) {
      if (this.#signal.aborted) return;
      this.#statusBoard.failed(error);
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
      this.#deliveries.nextAt,
      this.#times.nextAt,
    );
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => void this.#loop(),
      Math.max(wait === 1_000 ? nextDue - Date.now() : wait, 50),
    );
    this.#timer.unref?.();
  }

  /** A delivery dated a message to the second: its chat is read soon to date it (time-settling.ts). */
  #settleTimesSoon(chatId: number): void {
    if (this.#times.note(chatId)) this.#wake();
  }

  /** New inbound messages in the open, focused chat are read as they arrive. */
  noteIncoming(chatId: number): void {
    this.#readMarker.noteIncoming(chatId);
  }

  #bg(): { signal: AbortSignal; priority: 'background' } {
    return { signal: this.#signal, priority: 'background' };
  }

  #reachabilityChanged(state: Reachability): void {
    // Back: catch up on whatever happened meanwhile instead of waiting out the backoff.
    if (this.#statusBoard.reachabilityChanged(state, this.#ready) && this.#ready) this.syncNow();
  }
}
