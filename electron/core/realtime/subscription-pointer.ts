/**
 * The subscription kept pointed at the tunnel's URL, and its deliveries judged: pointed whenever the
 * tunnel comes up at a new URL, retried with backoff while it keeps that URL (at once when the
 * service is reachable again), read back every check interval (pointed back if someone changed it
 * on the service), and its delivery counters turned into a problem for the live status when the
 * service's attempts stop reaching Parley. Apart from realtime-service.ts, which starts and stops the
 * listener, tunnel and inbox around it; this holds the pointing and the counters.
 */
import type { ApiWebhookSubscription } from '../api/schemas.ts';
import type { V3WebhookSubscription } from '../api/v3/schemas.ts';
import { isPartnerApiError } from '../api/errors.ts';
import { createLogger } from '../log/logger.ts';
import { messageOf } from '../util.ts';
import type { Pointing } from './live-status.ts';
import type { RealtimeServiceOptions } from './realtime-options.ts';
import { viewOf } from './subscription-choice.ts';
import { type DeliveryCounters, failedDeliveriesBetween, type SubscriptionManager } from './subscriptions.ts';
import type { V3SubscriptionManager } from './v3-subscriptions.ts';
import { publicWebhookUrl } from './webhook-url.ts';

const log = createLogger('realtime');

export interface SubscriptionPointerOptions {
  /** The workspace's subscription manager (there once the service has started). */
  manager: () => SubscriptionManager | V3SubscriptionManager;
  /** Timings and thresholds (RealtimeServiceOptions says each). */
  timing: Pick<RealtimeServiceOptions, 'subscriptionCheckIntervalMs' | 'backoff' | 'failedDeliveryThreshold'>;
  /** Whether the service stopped: nothing is pointed or judged after. */
  stopped: () => boolean;
  /** Runs `work` after `ms` unless the service stopped first (its timers are cleared on stop). */
  later: (ms: number, work: () => unknown) => void;
  /** The status may have changed. */
  publish: () => void;
}

export class SubscriptionPointer {
  readonly #options: SubscriptionPointerOptions;
  #pointing: Pointing | null = null;
  #done: Promise<void> = Promise.resolve();
  #failures = 0;
  /** The subscription's counters when deliveries last reached Parley: failures count from here. */
  #counters: DeliveryCounters | null = null;
  #arrivedSinceCheck = false;
  #deliveryProblem: string | null = null;

  constructor(options: SubscriptionPointerOptions) {
    this.#options = options;
  }

  /** The last attempt to point the subscription (null while the tunnel is down). */
  get pointing(): Pointing | null {
    return this.#pointing;
  }

  /** Why the service's deliveries do not seem to arrive, if they do not. */
  get deliveryProblem(): string | null {
    return this.#deliveryProblem;
  }

  /** Settles when the latest pointing attempt has. */
  get done(): Promise<void> {
    return this.#done;
  }

  /** The tunnel is up at `url` (pointed unless already pointed there), or down (null). */
  tunnelAt(url: string | null): void {
    if (url === null) this.#pointing = null;
    else if (this.#pointing?.url !== url) this.#done = this.#point(url);
  }

  /** The service is reachable again: a failed pointing is tried now rather than when the backoff says. */
  serviceBack(): void {
    const pointing = this.#pointing;
    if (pointing?.phase === 'failed' && !this.#options.stopped()) this.#done = this.#point(pointing.url);
  }

  /** A delivery arrived: that is all the evidence "live" needs. */
  delivered(): void {
    this.#arrivedSinceCheck = true;
    if (this.#deliveryProblem) {
      this.#deliveryProblem = null;
      this.#options.publish();
    }
  }

  get #checkIntervalMs(): number {
    return this.#options.timing.subscriptionCheckIntervalMs ?? 60_000;
  }

  /** Points the subscription at `url`; on failure retries with backoff while the tunnel keeps that URL. */
  async #point(url: string): Promise<void> {
    const attempt: Pointing = { url, phase: 'pending' };
    this.#pointing = attempt;
    this.#options.publish();
    try {
      const subscription = await this.#options.manager().ensure(url);
      if (this.#pointing !== attempt || this.#options.stopped()) return;
      attempt.phase = 'ok';
      this.#failures = 0;
      this.#counters = viewOf(subscription).counters;
      this.#arrivedSinceCheck = false;
      this.#deliveryProblem = null;
      this.#options.later(this.#checkIntervalMs, () => this.#check(attempt));
    } catch (error) {
      if (this.#pointing !== attempt || this.#options.stopped()) return;
      attempt.phase = 'failed';
      attempt.reason = messageOf(error);
      attempt.offline = isPartnerApiError(error) && (error.kind === 'network' || error.kind === 'timeout');
      this.#failures++;
      log.warn('could not point the webhook subscription', { reason: attempt.reason });
      const { baseMs, capMs } = this.#options.timing.backoff ?? { baseMs: 1_000, capMs: 60_000 };
      this.#options.later(Math.min(capMs, baseMs * 2 ** (this.#failures - 1)), () => {
        if (this.#pointing === attempt) this.#done = this.#point(url);
      });
    }
    this.#options.publish();
  }

  /** Reads the subscription back: re-points it if it was changed, and judges its delivery counters. */
  async #check(attempt: Pointing): Promise<void> {
    if (this.#pointing !== attempt || this.#options.stopped()) return;
    const manager = this.#options.manager();
    let subscription: ApiWebhookSubscription | V3WebhookSubscription | null;
    try {
      subscription = await manager.inspect();
    } catch (error) {
      // The session's reachability reports an unreachable service; try again next round.
      log.debug('subscription check failed', { error: messageOf(error) });
      this.#options.later(this.#checkIntervalMs, () => this.#check(attempt));
      return;
    }
    if (this.#pointing !== attempt || this.#options.stopped()) return;
    const expected = publicWebhookUrl(attempt.url, manager.path);
    const view = subscription && viewOf(subscription);
    if (!view || !view.active || view.url !== expected) {
      log.warn('the webhook subscription was changed on the service; pointing it back');
      this.#done = this.#point(attempt.url);
      return;
    }
    const now = view.counters;
    const before = this.#counters ?? now;
    const failed = failedDeliveriesBetween(before, now, this.#arrivedSinceCheck);
    if (failed >= (this.#options.timing.failedDeliveryThreshold ?? 3)) {
      this.#deliveryProblem = `The service's last ${failed} delivery attempts did not reach Parley`;
    } else if (this.#arrivedSinceCheck || now.lastDeliveredAt !== before.lastDeliveredAt) {
      this.#deliveryProblem = null;
    }
    // Failed attempts add up across checks until one gets through: the service's retries slow down
    // (minutes apart), so counting per check interval would rarely see three in a row.
    if (failed === 0) this.#counters = now;
    this.#arrivedSinceCheck = false;
    this.#options.publish();
    this.#options.later(this.#checkIntervalMs, () => this.#check(attempt));
  }
}
