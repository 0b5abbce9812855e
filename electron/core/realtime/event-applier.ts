/**
 * Applies webhook events through the core's reconciler, so that deliveries arriving in any order
 * (retries, the service's own concurrency) end in the state in-order delivery would give. The
 * reconciler already merges messages monotonically; what it cannot know is an event's age relative
 * to one of another kind. Three cases need it, recorded as marks in `webhook_marks`:
 *
 * - contacts: `contact:<id>` holds the newest applied event time; an older created/updated/deleted
 *   is stale (an update arriving after the delete must not bring the contact back).
 * - typing: `typing:<chat>` likewise, advanced also by a customer's message (which ends typing),
 *   so a late "typing" never outlives the removal or the message that followed it.
 * - a read receipt for a message not stored yet waits as `read:<message id>` and is applied when
 *   the message arrives.
 */
import { parseServiceTime } from '../../../shared/time.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { ReconcileOutcome, Reconciler } from '../sync/reconciler.ts';
import type { WebhookEvent } from '../sync/webhook-events.ts';

const NOTHING: ReconcileOutcome = { refreshChats: [] };

export class WebhookEventApplier {
  readonly #store: LocalStore;
  readonly #reconciler: Reconciler;

  constructor(store: LocalStore, reconciler: Reconciler) {
    this.#store = store;
    this.#reconciler = reconciler;
  }

  /** One event, in one transaction (nested in the caller's when there is one). */
  apply(event: WebhookEvent): ReconcileOutcome {
    return this.#store.transaction(() => {
      const at = parseServiceTime(event.createdAt) ?? Date.now();
      switch (event.type) {
        case 'contact.created':
        case 'contact.updated':
        case 'contact.deleted':
          if (!this.#advance(`contact:${event.data.id}`, at)) return NOTHING;
          break;
        case 'typing_indicator.received':
        case 'typing_indicator.removed':
          if (!this.#advance(`typing:${event.data.chat_id}`, at)) return NOTHING;
          break;
        case 'message.read':
          if (!this.#store.messages.byId(event.data.id)) {
            this.#setMark(`read:${event.data.id}`, at);
            return NOTHING;
          }
          break;
        default:
          break;
      }
      const outcome = this.#reconciler.applyWebhook(event);
      if (event.type === 'message.sent' || event.type === 'message.received') {
        if (event.type === 'message.received') this.#advance(`typing:${event.data.chat_id}`, at);
        if (this.#takeMark(`read:${event.data.id}`)) this.#store.messages.markRead([event.data.id]);
      }
      return outcome;
    });
  }

  /** Records `at` for `entity` unless a newer event was applied already; false when `at` is stale. */
  #advance(entity: string, at: number): boolean {
    const mark = this.#store.db.get<{ at: number }>('SELECT at FROM webhook_marks WHERE entity = ?', entity);
    if (mark && at < mark.at) return false;
    this.#setMark(entity, at);
    return true;
  }

  #setMark(entity: string, at: number): void {
    this.#store.db.run(
      `INSERT INTO webhook_marks (entity, at, recorded_at) VALUES (?, ?, ?)
       ON CONFLICT (entity) DO UPDATE SET at = excluded.at, recorded_at = excluded.recorded_at`,
      entity,
      at,
      Date.now(),
    );
  }

  #takeMark(entity: string): boolean {
    return this.#store.db.run('DELETE FROM webhook_marks WHERE entity = ?', entity).changes > 0;
  }
}
