/**
 * Applies V3 webhook events, inside the inbox processor's transaction like V2's (see
 * event-applier.ts): V3 ids become local ids through `V3LocalIds`, shapes become records through
 * api/v3/domain-map.ts, and the Reconciler writes them (the one place service facts enter the store),
 * reply target, effect, health, reputation, failure, reaction part and emoji included.
 *
 * Deliveries may arrive in any order, and every case converges on what in-order delivery gives:
 *
 * - message.sent/received/delivered/read write through `messages.upsert`, whose merge only moves a
 *   message forward (delivered before sent stays delivered; read is never undone).
 * - message.failed is final (messages.setFailure): a message event arriving after it (a late `sent`)
 *   leaves the message failed, and one arriving before its message is kept until the message is.
 * - everything else that replaces a value keeps the time of the newest event applied per entity in
 *   `webhook_marks` (`v3:<kind>:<id>`), and an older event for it is skipped: an edit, a reaction (an
 *   add arriving after its removal does not bring it back), a participant, a group name, a chat's
 *   health, a line's reputation. Typing uses V2's in-memory rule (advanced by customer messages).
 *
 * Chats the event alone cannot complete are returned in `refreshChats`, as with V2.
 */
import type { Chat, ChatHealth, Handle } from '../../../shared/domain.ts';
import { parseServiceTime } from '../../../shared/time.ts';
import {
  linkOf,
  v3FailedEventToDomain,
  v3HealthToDomain,
  type V3LocalIds,
  v3MessageEventToDomain,
  v3ReactionEventToDomain,
} from '../api/v3/domain-map.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { MessageRecord } from '../store/records.ts';
import type { ReconcileOutcome, Reconciler } from '../sync/reconciler.ts';
import type { V3WebhookEvent } from '../api/v3/webhook-events.ts';
import { assertNever } from '../util.ts';

type MessageEvent = Extract<
  V3WebhookEvent,
  { type: 'message.sent' | 'message.received' | 'message.delivered' | 'message.read' }
>;
type EventHandle = { id?: string; handle: string; service?: string | null; is_me?: boolean } | null;

/** The state a message event states. Received and read messages have arrived: `delivered`. */
const STATE_OF = {
  'message.sent': 'sent',
  'message.received': 'delivered',
  'message.delivered': 'delivered',
  'message.read': 'delivered',
} as const;

export class V3EventApplier {
  /** Read for what is stored already; written only through the reconciler. */
  readonly #store: LocalStore;
  readonly #reconciler: Reconciler;
  readonly #ids: V3LocalIds;
  /** Shared with the V2 applier: the newest typing event (or customer message) per chat. */
  readonly #advanceTyping: (chatId: number, at: number) => boolean;

  constructor(
    store: LocalStore,
    reconciler: Reconciler,
    ids: V3LocalIds,
    advanceTyping: (chatId: number, at: number) => boolean,
  ) {
    this.#store = store;
    this.#reconciler = reconciler;
    this.#ids = ids;
    this.#advanceTyping = advanceTyping;
  }

  apply(event: V3WebhookEvent): ReconcileOutcome {
    const refresh = new Set<number>();
    const at = parseServiceTime(event.createdAt) ?? Date.now();
    switch (event.type) {
      case 'message.sent':
      case 'message.received':
      case 'message.delivered':
      case 'message.read':
        this.#message(event, at, refresh);
        break;
      case 'message.failed': {
        const failed = v3FailedEventToDomain(event.data, this.#ids);
        // A send that fails has no message.sent: a message sent elsewhere is fetched, and the
        // failure kept until its message is stored.
        if (this.#store.messages.chatOf(failed.messageId) === undefined) refresh.add(failed.chatId);
        this.#reconciler.applyFailure(failed.messageId, failed.failure);
        break;
      }
      case 'message.edited': {
        const d = event.data;
        const stored = this.#store.messages.byId(this.#ids.message(d.id, d.chat?.id));
        const chatId = d.chat ? this.#ids.chat(d.chat.id) : stored?.chatId;
        const editedAt = parseServiceTime(d.edited_at) ?? at;
        if (!stored || stored.text.includes('\n') || d.part.index > 0) {
          // The store keeps a message's flattened text, not its parts: only a one-part text can be
          // edited in place; anything else is fetched whole.
          if (chatId !== undefined) refresh.add(chatId);
          break;
        }
        if (!this.#advance(`v3:edit:${stored.id}`, editedAt)) break;
        this.#reconciler.applyEdit(stored.key, d.part.text, editedAt);
        break;
      }
      case 'reaction.added':
      case 'reaction.removed': {
        const reaction = v3ReactionEventToDomain(event.data, this.#ids);
        if (!this.#advance(`v3:reaction:${reaction.id}`, reaction.at || at)) break;
        this.#reconciler.applyReaction(
          {
            id: reaction.id,
            messageId: reaction.messageId,
            kind: reaction.kind,
            fromMe: reaction.fromMe,
            sender: reaction.from,
            at: reaction.at || at,
            partIndex: reaction.partIndex ?? 0,
            customEmoji: reaction.customEmoji ?? null,
          },
          event.type === 'reaction.added' ? 'added' : 'removed',
        );
        break;
      }
      case 'participant.added':
      case 'participant.removed': {
        const d = event.data;
        const chat = this.#knownChat(d.chat_id, refresh);
        const handle = d.handle as EventHandle;
        if (!chat || !handle) break;
        const changedAt = parseServiceTime(d.changed_at) ?? at;
        if (!this.#advance(`v3:participant:${chat.id}:${handle.handle}`, changedAt)) break;
        const others = chat.handles.filter((h) => h.identifier !== handle.handle);
        const handles =
          event.type === 'participant.added'
            ? [...others, this.#handle(d.chat_id, handle, chat.service, changedAt)]
            : others;
        this.#reconciler.applyChatFacts([{ id: chat.id, lineId: chat.lineId, handles }]);
        break;
      }
      case 'chat.created': {
        const d = event.data;
        const v3ChatId = (d.chat_id ?? d.id) as string | undefined;
        if (v3ChatId === undefined) break;
        const chatId = this.#ids.chat(v3ChatId);
        const me = d.handles.find((h) => h.is_me);
        const line = me ? this.#store.lines.byNumber(me.handle) : undefined;
        if (!line) {
          refresh.add(chatId);
          break;
        }
        const service = d.service ?? 'iMessage';
        const current = d.handles.filter((h) => h.status === 'active');
        this.#reconciler.applyChatFacts([
          {
            id: chatId,
            lineId: line.id,
            displayName:
              d.display_name ??
              current
                .filter((h) => !h.is_me)
                .map((h) => h.handle)
                .join(', '),
            service,
            isGroup: d.is_group,
            v3ChatId,
            handles: current.map((h) => this.#handle(v3ChatId, h, service, parseServiceTime(d.created_at))),
          },
        ]);
        break;
      }
      case 'chat.typing_indicator.started':
      case 'chat.typing_indicator.stopped': {
        const chat = this.#knownChat(event.data.chat_id, refresh);
        if (!chat || !this.#advanceTyping(chat.id, at)) break;
        if (event.type === 'chat.typing_indicator.stopped') {
          this.#reconciler.applyTyping(chat.id, null);
          break;
        }
        // The event does not say who is typing: one customer is named, a group shows "someone".
        const others = chat.handles.filter((h) => !h.isMe).map((h) => h.identifier);
        this.#reconciler.applyTyping(chat.id, others.length === 1 ? others : ['*']);
        break;
      }
      case 'chat.group_name_updated': {
        const d = event.data;
        const chat = this.#knownChat(d.chat_id, refresh);
        if (!chat || !this.#advance(`v3:name:${chat.id}`, parseServiceTime(d.updated_at) ?? at)) break;
        this.#reconciler.applyChatFacts([
          { id: chat.id, lineId: chat.lineId, displayName: d.new_value ?? '' },
        ]);
        break;
      }
      case 'phone_number.status_updated': {
        const d = event.data;
        const status = d.reputation?.status ?? d.status;
        if (!status) break;
        const lineId = this.#store.lines.byNumber(d.phone_number)?.id ?? this.#ids.line(d.phone_number);
        const changedAt = parseServiceTime(d.changed_at ?? d.updated_at) ?? at;
        if (!this.#advance(`v3:reputation:${lineId}`, changedAt)) break;
        this.#reconciler.applyLineReputation(lineId, { status, docUrl: d.reputation?.doc_url ?? null });
        break;
      }
      // The store shows no group icon, and a failed rename changed nothing: acknowledged only.
      case 'chat.group_icon_updated':
      case 'chat.group_name_update_failed':
      case 'chat.group_icon_update_failed':
      case 'unknown':
        break;
      default:
        assertNever(event);
    }
    return { refreshChats: [...refresh] };
  }

  #message(event: MessageEvent, at: number, refresh: Set<number>): void {
    const message = v3MessageEventToDomain(event.type, event.data, this.#ids);
    const chatId = message.chatId;
    this.#ensureChat(event, chatId, refresh);
    const record: MessageRecord = {
      id: message.id as number,
      chatId,
      text: message.text,
      sentAt: message.sentAt || at,
      deliveredAt: message.deliveredAt,
      deliveryStatus: STATE_OF[event.type],
      isRead: message.isRead,
      fromMe: message.fromMe,
      sender: message.sender,
      attachments: message.attachments.map((a) => ({ ...a, size: a.size ?? null })),
      idempotencyKey: event.data.idempotency_key,
      replyTo: message.replyTo ?? null,
      effect: message.effect ?? null,
      link: linkOf(message),
    };
    this.#reconciler.applyEventMessage(record, event.type === 'message.received');
    if (event.type === 'message.received') this.#advanceTyping(chatId, at);
    const health = v3HealthToDomain(event.data.chat?.health_status ?? null);
    if (health) this.#health(chatId, health, at);
  }

  /** A chat first named by a message event: stored from what the event says when its line is known. */
  #ensureChat(event: MessageEvent, chatId: number, refresh: Set<number>): void {
    if (this.#store.chats.exists(chatId)) return;
    refresh.add(chatId);
    const summary = event.data.chat;
    const owner = (summary?.owner_handle as EventHandle)?.handle;
    const line = owner ? this.#store.lines.byNumber(owner) : undefined;
    if (!line) return;
    const service = event.data.service ?? 'iMessage';
    const customer = event.data.direction === 'inbound' ? event.data.sender_handle : null;
    const handles: Handle[] = [
      this.#handle(event.data.chatId, { handle: line.phoneNumber, is_me: true }, service, null),
    ];
    if (customer)
      handles.push(this.#handle(event.data.chatId, customer as EventHandle & object, service, null));
    this.#reconciler.applyChatFacts([
      {
        id: chatId,
        lineId: line.id,
        displayName: customer?.handle ?? '',
        service,
        isGroup: summary?.is_group ?? false,
        v3ChatId: event.data.chatId,
        handles: summary?.is_group ? undefined : handles,
      },
    ]);
  }

  #health(chatId: number, health: ChatHealth, at: number): void {
    const stored = this.#store.chats.health(chatId);
    if (stored && stored.status === health.status && stored.docUrl === health.docUrl) return;
    if (!this.#advance(`v3:health:${chatId}`, health.updatedAt ?? at)) return;
    this.#reconciler.applyChatHealth(chatId, health);
  }

  #knownChat(v3ChatId: string, refresh: Set<number>): Chat | undefined {
    const chatId = this.#ids.chat(v3ChatId);
    const chat = this.#store.chats.get(chatId);
    if (!chat) refresh.add(chatId);
    return chat;
  }

  #handle(
    v3ChatId: string,
    handle: { id?: string; handle: string; service?: string | null; is_me?: boolean },
    chatService: string,
    joinedAt: number | null,
  ): Handle {
    return {
      // A handle named by its string only is still one handle per chat.
      id: this.#ids.handle(handle.id ?? `${v3ChatId}/${handle.handle}`),
      identifier: handle.handle,
      service: handle.service ?? chatService,
      joinedAt,
      isMe: handle.is_me ?? false,
      contactName: null,
    };
  }

  /** Records `at` for `entity` unless a newer event was applied already; false when `at` is older. */
  #advance(entity: string, at: number): boolean {
    const newest = this.#store.webhookMarks.at(entity);
    if (newest !== undefined && at < newest) return false;
    this.#store.webhookMarks.set(entity, at);
    return true;
  }
}
