/**
 * Where live events land, whoever brings them: the durable inbox, its processor and the event
 * applier, without a listener, a tunnel or a subscription. The webhook listener (RealtimeService)
 * feeds it deliveries; a desktop joined to its team's relay feeds it the relay's event log
 * (relay/event-source.ts). Either way each event is applied once, through the reconciler.
 *
 *   const live = new LiveInbox(session);
 *   live.start();                       // applies what an earlier run queued but did not apply
 *   …inbox.enqueueAll(…) then live.processor.queued(seq, event)
 *   live.stop();
 */
import { createLogger } from '../log/logger.ts';
import type { ServiceSession } from '../session.ts';
import { WebhookEventApplier } from './event-applier.ts';
import { DEDUPE_RETENTION_MS, WebhookInbox } from './inbox.ts';
import { InboxProcessor } from './inbox-processor.ts';
import type { V3LocalIds } from '../api/v3/domain-map.ts';

const log = createLogger('webhooks');

/** How often seen event ids and ordering marks past their retention are forgotten. */
const PRUNE_EVERY_MS = 60 * 60_000;

export type LiveInboxSession = Pick<ServiceSession, 'store' | 'sync'>;

export class LiveInbox {
  readonly inbox: WebhookInbox;
  readonly processor: InboxProcessor;
  #pruneTimer: ReturnType<typeof setInterval> | undefined;

  /** `v3Ids` (the store's remote id mapping) lets V3 events apply; without it they are only settled. */
  constructor(session: LiveInboxSession, v3Ids?: V3LocalIds) {
    this.inbox = new WebhookInbox(session.store);
    this.processor = new InboxProcessor({
      store: session.store,
      inbox: this.inbox,
      applier: new WebhookEventApplier(session.store, session.sync.reconciler, v3Ids),
      refreshChat: (chatId) => session.sync.refreshChat(chatId),
    });
  }

  /** Applies whatever an earlier run acknowledged but did not apply, and keeps the bookkeeping pruned. */
  start(): void {
    this.processor.schedule();
    this.#prune();
    this.#pruneTimer ??= setInterval(() => this.#prune(), PRUNE_EVERY_MS);
    this.#pruneTimer.unref?.();
  }

  stop(): void {
    clearInterval(this.#pruneTimer);
    this.#pruneTimer = undefined;
    this.processor.stop();
  }

  /** Seen event ids and ordering marks are kept a day, then forgotten. */
  #prune(): void {
    const { seen, marks } = this.inbox.prune(Date.now() - DEDUPE_RETENTION_MS);
    if (seen + marks > 0) log.debug('pruned webhook bookkeeping', { seen, marks });
  }
}
