/**
 * Applies webhook events through the core's reconciler, so that deliveries arriving in any order
 * (retries, the service's own concurrency) end in the state in-order delivery would give. The
 * reconciler already merges messages monotonically; what it cannot know is an event's age relative
 * to one of another kind. Three cases need it:
 *
 * - contacts: `contact:<id>` (in `webhook_marks`) holds the newest applied event time; an older
 *   created/updated/deleted is stale (an update arriving after the delete must not bring it back).
 * - typing: the newest typing event per chat, advanced also by a customer's message (which ends
 *   typing), so a late "typing" never outlives the removal or the message that followed it. Kept in
 *   memory, like the typing state itself (meaningless after a restart).
 * - a read receipt for a message not stored yet waits as `read:<message id>` and is applied when
 *   the message arrives. Such receipts are rare, so their ids are also kept in memory: checking each
 *   arriving message costs no query.
 */
import { parseServiceTime } from '../../../shared/time.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { ReconcileOutcome, Reconciler } from '../sync/reconciler.ts';
import type { V3LocalIds } from '../api/v3/domain-map.ts';
import type { WebhookEvent } from '../api/webhook-events.ts';
import { isV3Event, type LiveEvent } from './live-event.ts';
import { V3EventApplier } from './v3-event-applier.ts';

const NOTHING: ReconcileOutcome = { refreshChats: [] };
const READ_MARK = 'read:';

export class WebhookEventApplier {
  readonly #store: LocalStore;
  readonly #reconciler: Reconciler;
  readonly #typingAt = new Map<number, number>();
  readonly #waitingReads: Set<number>;
  readonly #v3: V3EventApplier | undefined;

  /** `v3Ids` (the store's remote id mapping) enables V3 events; without it they are acknowledged only. */
  constructor(store: LocalStore, reconciler: Reconciler, v3Ids?: V3LocalIds) {
    this.#store = store;
    this.#reconciler = reconciler;
    this.#v3 =
      v3Ids && new V3EventApplier(store, reconciler, v3Ids, (chatId, at) => this.#advanceTyping(chatId, at));
    this.#waitingReads = new Set(
      store.webhookMarks
        .entitiesStartingWith(READ_MARK)
        .map((entity) => Number(entity.slice(READ_MARK.length))),
    );
  }

  /**
   * One event. Call it inside a store transaction (the inbox processor does), so that the event,
   * its marks and the removal of its inbox row commit together.
   */
  apply(event: LiveEvent): ReconcileOutcome {
    if (isV3Event(event)) return this.#v3?.apply(event) ?? NOTHING;
    return this.#applyV2(event);
  }

  #applyV2(event: WebhookEvent): ReconcileOutcome {
    const at = (): number => parseServiceTime(event.createdAt) ?? Date.now();
    switch (event.type) {
      case 'contact.created':
      case 'contact.updated':
      case 'contact.deleted':
        if (!this.#advance(`contact:${event.data.id}`, at())) return NOTHING;
        break;
      case 'typing_indicator.received':
      case 'typing_indicator.removed':
        if (!this.#advanceTyping(event.data.chat_id, at())) return NOTHING;
        break;
      case 'message.read':
        if (this.#store.messages.chatOf(event.data.id) === undefined) {
          this.#setMark(`${READ_MARK}${event.data.id}`, at());
          this.#waitingReads.add(event.data.id);
          return NOTHING;
        }
        break;
      default:
        break;
    }
    const outcome = this.#reconciler.applyWebhook(event);
    if (event.type === 'message.sent' || event.type === 'message.received') {
      if (event.type === 'message.received') this.#advanceTyping(event.data.chat_id, at());
      if (this.#waitingReads.delete(event.data.id)) {
        this.#store.webhookMarks.remove(`${READ_MARK}${event.data.id}`);
        this.#reconciler.applyReadMarks([event.data.id]);
      }
    }
    return outcome;
  }

  #advanceTyping(chatId: number, at: number): boolean {
    const newest = this.#typingAt.get(chatId);
    if (newest !== undefined && at < newest) return false;
    this.#typingAt.set(chatId, at);
    return true;
  }

  /** Records `at` for `entity` unless a newer event was applied already; false when `at` is stale. */
  #advance(entity: string, at: number): boolean {
    const newest = this.#store.webhookMarks.at(entity);
    if (newest !== undefined && at < newest) return false;
    this.#setMark(entity, at);
    return true;
  }

  #setMark(entity: string, at: number): void {
    this.#store.webhookMarks.set(entity, at);
  }
}
