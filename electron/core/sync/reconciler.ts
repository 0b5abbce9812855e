import type { ChatHealth, DeliveryFailure, LineReputation } from '../../../shared/domain.ts';
import type { ApiContact } from '../api/schemas.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { ChatRecord, LineRecord, MessageRecord, ReactionRecord } from '../store/records.ts';
import { contactRecord } from '../api/domain-map.ts';
import type { ListedChat } from './messaging.ts';
import type { WebhookEvent } from '../api/webhook-events.ts';
import { applyV2Event } from './v2-webhook-facts.ts';

/** What applying an event could not do alone: chats whose full state must be fetched. */
export interface ReconcileOutcome {
  refreshChats: number[];
}

/**
 * The one place where the service's facts enter the store — poll results, send responses and
 * webhook events alike — so a message that arrives three ways is stored once, with the newest
 * state winning (see store/merge.ts). Every call is one transaction. V2 webhook events come whole
 * (`applyWebhook`); V3's applier (realtime/v3-event-applier.ts) decides their order and maps them to
 * records, and hands them over through the `apply…` calls below the paging ones.
 */
/** Messages a poll changed (new, or a state, text, read mark or reaction moved), after the commit. */
export type PolledChangesListener = (chatId: number, messageIds: number[]) => void;

export class Reconciler {
  readonly #store: LocalStore;
  readonly #polledListeners = new Set<PolledChangesListener>();
  readonly #timesToSettleListeners = new Set<(chatId: number) => void>();

  constructor(store: LocalStore) {
    this.#store = store;
  }

  ownNumbers(): Set<string> {
    return new Set(this.#store.lines.list().map((l) => l.phoneNumber));
  }

  applyLines(lines: readonly LineRecord[]): void {
    this.#store.transaction(() => this.#store.lines.replaceAll([...lines]));
  }

  /** One line as the service answered a change to it, which does not name the line's user: kept. */
  applyLineChanged(line: LineRecord): void {
    this.#store.transaction(() => {
      const stored = this.#store.lines.get(line.id);
      this.#store.lines.upsert(
        stored ? { ...line, userName: stored.userName, userEmail: stored.userEmail } : line,
      );
    });
  }

  /** The chat's V3 id, as the service named it for a migration. */
  applyV3ChatId(chatId: number, v3ChatId: string): void {
    this.#store.transaction(() => {
      const chat = this.#store.chats.get(chatId);
      if (chat) this.#store.chats.upsert([{ id: chatId, lineId: chat.lineId, v3ChatId }]);
    });
  }

  /**
   * Chats listed for a line (through the messaging port, either version). Returns those whose
   * messages changed: their revision moved since their messages were last synced, or is unknown.
   */
  applyChats(
    chats: readonly ListedChat[],
    line: { id: number; phoneNumber: string },
    options: { previews?: boolean } = {},
  ): number[] {
    return this.#store.transaction(() => {
      const changed: number[] = [];
      for (const chat of chats) {
        const before = this.#store.chats.syncState(chat.id);
        if (!before || chat.revision === undefined || before.syncedMessageCount !== chat.revision)
          changed.push(chat.id);
      }
      this.#store.chats.upsert(chats.map((chat) => chatOnly({ ...chat, lineId: chat.lineId || line.id })));
      // Only where nothing is stored yet: a stored chat's gaps are found by walking back from its
      // newest page until it meets what is stored (catch-up.ts), which a lone newest message would
      // end at once.
      if (options.previews) {
        const previews = chats.flatMap((chat) =>
          chat.preview && this.#store.messages.newestSentAt(chat.id) === null
            ? [{ ...chat.preview, chatId: chat.id }]
            : [],
        );
        if (previews.length > 0) this.#store.messages.upsert(previews);
      }
      return changed;
    });
  }

  /** A single chat (get chat, create chat), its line already known. */
  applyChat(chat: ChatRecord): void {
    this.#store.transaction(() => {
      this.#store.chats.upsert([chatOnly(chat)]);
      this.#store.chats.refreshSummaries([chat.id]);
    });
  }

  /**
   * What polls change, told after each commit: a relay puts it in its event log, since polling is
   * how it learns what no webhook says (V2 delivery states, anything missed while it was down).
   */
  onPolledChanges(listener: PolledChangesListener): () => void {
    this.#polledListeners.add(listener);
    return () => this.#polledListeners.delete(listener);
  }

  /**
   * A V2 delivery stored a message dated to the second, so the chat is to be read (a moment later,
   * once the burst it came in has passed) to date it to the millisecond: the order within a second
   * is the service's only then.
   */
  onTimesToSettle(listener: (chatId: number) => void): () => void {
    this.#timesToSettleListeners.add(listener);
    return () => this.#timesToSettleListeners.delete(listener);
  }

  /** A page of messages of one chat, from a poll. */
  applyMessages(
    chatId: number,
    messages: readonly MessageRecord[],
    sync?: { syncedMessageCount?: number; historyComplete?: boolean },
  ): void {
    const watched = this.#polledListeners.size > 0;
    const before = watched ? this.#facts(messages) : undefined;
    this.#store.transaction(() => {
      this.#store.messages.upsert(messages.map((m) => ({ ...m, chatId })));
      if (sync) this.#store.chats.setSyncState(chatId, sync);
    });
    if (!before) return;
    const after = this.#facts(messages);
    const changed = [...after].filter(([id, facts]) => before.get(id) !== facts).map(([id]) => id);
    if (changed.length > 0) for (const listener of this.#polledListeners) listener(chatId, changed);
  }

  /** What a desktop shows of each stored message, as one comparable string per id. */
  #facts(messages: readonly MessageRecord[]): Map<number, string> {
    const facts = new Map<number, string>();
    for (const { id } of messages) {
      const m = this.#store.messages.byId(id);
      if (!m) continue;
      const reactions = m.reactions.map((r) => [r.kind, r.from, r.fromMe, r.partIndex, r.customEmoji]);
      facts.set(
        id,
        JSON.stringify([
          m.state,
          m.deliveredAt,
          m.text,
          m.editedAt,
          m.isRead,
          m.failure ?? null,
          reactions,
          // A read dating a delivered message to the millisecond moves it within its second.
          m.sentAt,
        ]),
      );
    }
    return facts;
  }

  /** The service's copy of a reaction sent from here replaces the one shown while it went out. */
  applyReactionSent(messageId: number, kind: string, reaction: ReactionRecord): void {
    this.#store.transaction(() => {
      this.#store.messages.removeReaction(messageId, kind, true, null);
      this.#store.messages.addReaction({ ...reaction, fromMe: true, at: Date.now() });
    });
  }

  /** Messages the service says were read (a receipt that waited for its message to arrive). */
  applyReadMarks(messageIds: readonly number[]): void {
    this.#store.messages.markRead([...messageIds]);
  }

  /** Stored messages the service no longer lists (deleted there). */
  applyMessagesGone(chatId: number, keys: readonly string[]): void {
    if (keys.length > 0) this.#store.messages.remove(chatId, keys);
  }

  /** The send response replaces the optimistic message (matched by its idempotency key). */
  applySent(chatId: number, message: MessageRecord, idempotencyKey: string): void {
    this.#store.transaction(() => {
      this.#store.messages.upsert([{ ...message, chatId, idempotencyKey }]);
    });
  }

  /** Create chat: the chat, and its first message in place of the optimistic one. */
  applyCreatedChat(chat: ChatRecord, message: MessageRecord, idempotencyKey: string, localKey: string): void {
    this.#store.transaction(() => {
      this.applyChat(chat);
      this.#store.messages.moveLocal(localKey, chat.id);
      this.#store.messages.upsert([{ ...message, chatId: chat.id, idempotencyKey }]);
    });
  }

  /** A message a live event states; a delivery failure reported before it now applies to it. */
  applyEventMessage(record: MessageRecord, received: boolean): void {
    this.#store.transaction(() => {
      this.#store.messages.upsert([record]);
      if (received) this.#store.typing.clear(record.chatId);
      // The store keeps a failed message failed whatever comes after.
      const failure = this.#store.messages.earlyFailure(record.id);
      if (failure) this.#store.messages.setFailure(record.id, failure);
    });
  }

  /** The service could not deliver a message: final. One not stored yet takes it when it comes. */
  applyFailure(messageId: number, failure: DeliveryFailure): void {
    this.#store.transaction(() => {
      if (!this.#store.messages.byId(messageId)) this.#store.messages.setEarlyFailure(messageId, failure);
      this.#store.messages.setFailure(messageId, failure);
    });
  }

  applyEdit(key: string, text: string, editedAt: number): void {
    this.#store.transaction(() => this.#store.messages.editText(key, text, editedAt));
  }

  /** A reaction added, or removed (a `custom` one told from the others by its emoji). */
  applyReaction(reaction: ReactionRecord, change: 'added' | 'removed'): void {
    this.#store.transaction(() => {
      if (change === 'added') this.#store.messages.addReaction(reaction);
      else
        this.#store.messages.removeReaction(
          reaction.messageId,
          reaction.kind,
          reaction.fromMe,
          reaction.sender,
          reaction.kind === 'custom' ? (reaction.customEmoji ?? null) : null,
        );
    });
  }

  /** What an event states about chats (participants, a name, a chat first named); summaries kept. */
  applyChatFacts(chats: readonly ChatRecord[]): void {
    this.#store.transaction(() => this.#store.chats.upsert(chats));
  }

  applyChatHealth(chatId: number, health: ChatHealth): void {
    this.#store.transaction(() => this.#store.chats.setHealth(chatId, health));
  }

  applyLineReputation(lineId: number, reputation: LineReputation): void {
    this.#store.transaction(() => this.#store.lines.setReputation(lineId, reputation));
  }

  /** Who is typing in a chat (a group's unnamed typist is `*`); null: nobody. */
  applyTyping(chatId: number, identifiers: readonly string[] | null): void {
    if (identifiers === null) this.#store.typing.clear(chatId);
    else for (const identifier of identifiers) this.#store.typing.set(chatId, identifier, true);
  }

  applyContacts(contacts: readonly ApiContact[]): void {
    this.#store.transaction(() => this.#store.contacts.upsert(contacts.map(contactRecord)));
  }

  /** Contacts the service no longer has (deleted through it, or found gone). */
  applyContactsDeleted(ids: readonly number[]): void {
    this.#store.transaction(() => this.#store.contacts.remove([...ids]));
  }

  /** A V2 webhook event (sync/v2-webhook-facts.ts maps it to the store's writes). */
  applyWebhook(event: WebhookEvent): ReconcileOutcome {
    const { refreshChats, datedToTheSecond } = this.#store.transaction(() =>
      applyV2Event(this.#store, event),
    );
    if (datedToTheSecond !== undefined)
      for (const listener of this.#timesToSettleListeners) listener(datedToTheSecond);
    return { refreshChats };
  }
}

/** The chat's facts without the listing's revision (the store keeps that as its sync state). */
function chatOnly(chat: ListedChat): ChatRecord {
  const { revision: _revision, preview: _preview, ...record } = chat;
  return record;
}
