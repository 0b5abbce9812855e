import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import type { DomainEvent } from '../domain/events.ts';
import type { Subscription } from '../domain/model.ts';
import type { World } from '../domain/world.ts';
import { isoTime } from '../domain/time.ts';
import { v3Id } from '../domain/v3/ids.ts';
import { canonicalJson, envelopeFor, signature, standardWebhookHeaders, v3Envelope } from './envelope.ts';
import { createWebhookFaultBook, type WebhookFault, type WebhookFaultBook } from './faults.ts';

export interface DeliveryRecord {
  subscription_id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  url: string;
  status_code: number | null;
  error: string | null;
  ok: boolean;
  fault: WebhookFault['kind'] | null;
  started_at: string;
  duration_ms: number;
}

export interface WebhookDispatcher {
  readonly faults: WebhookFaultBook;
  log(): readonly DeliveryRecord[];
  clearLog(): void;
  /** Resolves when no delivery is in flight or waiting for a retry (bounded by `timeoutMs`). */
  idle(timeoutMs?: number): Promise<boolean>;
  stop(): Promise<void>;
}

const LOG_LIMIT = 20_000;
/** A well-formed secret that is not the subscription's (bad_signature fault on V3). */
const WRONG_V3_SECRET = `whsec_${Buffer.from('not-the-secret-not-the-secret!!').toString('base64')}`;

interface Delivery {
  subscription: Subscription;
  event: DomainEvent;
  eventId: string;
  body: string;
  signature: string | null;
  attempt: number;
}

/**
 * Delivers each domain event to every active subscription of its organization that lists the event
 * (duplicate subscriptions duplicate deliveries, as the spec warns). Bodies are canonical JSON,
 * signed when the subscription has a secret; any 2xx within the receipt window is success; anything
 * else is retried with exponential backoff (API-GAPS: 10 retries over ~25 minutes, simulated time).
 */
export function createWebhookDispatcher(world: World): WebhookDispatcher {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  const faults = createWebhookFaultBook(() => world.random);
  let records: DeliveryRecord[] = [];
  let pending = 0;
  let stopped = false;
  const held = new Map<number, Array<() => void>>(); // reorder: deliveries waiting for the next one

  const unsubscribe = world.onEvent((event) => {
    // One id per event (the spec: unique per event, for deduplication), whatever the fan-out.
    const eventId = randomUUID();
    for (const subscription of event.org.subscriptions.values()) {
      if (!subscription.active || subscription.family !== event.family) continue;
      if (!subscription.events.includes(event.type)) continue;
      const lines = subscription.phoneNumbers;
      if (lines.length > 0 && event.lineNumber !== null && !lines.includes(event.lineNumber)) continue;
      const v3 = event.family === 'v3';
      const envelope = v3
        ? v3Envelope(event, world.clock.now(), eventId, v3Id(event.org, 'org', event.org.id))
        : envelopeFor(event, subscription.version, world.clock.now(), eventId);
      const body = canonicalJson(envelope);
      const delivery: Delivery = {
        subscription,
        event,
        eventId,
        body,
        signature: subscription.secret && !v3 ? signature(subscription.secret, body) : null,
        attempt: 0,
      };
      pending++;
      firstAttempt(delivery);
    }
  });

  function releaseHeld(subscriptionId: number): void {
    const waiting = held.get(subscriptionId);
    if (!waiting) return;
    held.delete(subscriptionId);
    for (const release of waiting) release();
  }

  function firstAttempt(delivery: Delivery): void {
    const fault = faults.match(delivery.event.type, delivery.subscription.id);
    const id = delivery.subscription.id;
    switch (fault?.kind) {
      case 'delay':
        world.clock.after(fault.delay_ms, () => void attempt(delivery, null));
        return;
      case 'reorder': {
        const list = held.get(id) ?? [];
        list.push(() => void attempt(delivery, 'reorder'));
        held.set(id, list);
        world.clock.after(fault.delay_ms, () => releaseHeld(id)); // never held forever
        return;
      }
      case 'duplicate':
        pending++;
        void attempt({ ...delivery }, 'duplicate');
        break;
    }
    void attempt(delivery, fault?.kind === 'duplicate' ? null : (fault?.kind ?? null)).then(() => {
      if (fault?.kind !== 'reorder') releaseHeld(id);
    });
  }

  async function attempt(delivery: Delivery, fault: WebhookFault['kind'] | null): Promise<void> {
    if (stopped) return settle();
    delivery.attempt++;
    const { subscription } = delivery;
    subscription.deliveryAttempts++;
    const started = performance.now();
    const startedAt = world.clock.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    if (fault === 'drop') {
      error = 'dropped by fault injection';
    } else {
      const controller = new AbortController();
      const cancelTimeout = world.clock.after(world.config.webhook.receiptTimeoutMs, () =>
        controller.abort(),
      );
      try {
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          'user-agent': 'pms-sandbox-webhooks/1',
        };
        if (subscription.family === 'v3' && subscription.secret) {
          const secret = fault === 'bad_signature' ? WRONG_V3_SECRET : subscription.secret;
          Object.assign(headers, standardWebhookHeaders(secret, delivery.eventId, delivery.body));
        } else {
          const sig =
            fault === 'bad_signature' ? signature('not-the-secret', delivery.body) : delivery.signature;
          if (sig) headers['x-webhook-signature'] = sig;
        }
        const response = await request(subscription.webhookUrl, {
          method: 'POST',
          body: delivery.body,
          headers,
          signal: controller.signal,
          dispatcher: agent,
        });
        statusCode = response.statusCode;
        await response.body.dump();
      } catch (caught) {
        error = controller.signal.aborted
          ? 'receipt timeout'
          : caught instanceof Error
            ? caught.message
            : String(caught);
      } finally {
        cancelTimeout();
      }
    }
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    record({
      subscription_id: subscription.id,
      event_id: delivery.eventId,
      event_type: delivery.event.type,
      attempt: delivery.attempt,
      url: subscription.webhookUrl,
      status_code: statusCode,
      error,
      ok,
      fault,
      started_at: isoTime(startedAt),
      duration_ms: Math.round(performance.now() - started),
    });
    if (ok) {
      subscription.lastDeliveredAt = world.clock.now();
      return settle();
    }
    if (delivery.attempt > world.config.webhook.maxRetries || stopped) return settle();
    // V3: a 4xx other than 429 is the receiver's final answer (V3-DECISIONS).
    const final4xx = statusCode !== null && statusCode >= 400 && statusCode < 500 && statusCode !== 429;
    if (subscription.family === 'v3' && final4xx) return settle();
    const backoff = world.config.webhook.retryBaseMs * 2 ** (delivery.attempt - 1);
    world.clock.after(backoff, () => void attempt(delivery, null));
  }

  function record(entry: DeliveryRecord): void {
    records.push(entry);
    if (records.length > LOG_LIMIT) records = records.slice(-LOG_LIMIT / 2);
  }

  function settle(): void {
    pending--;
  }

  return {
    faults,
    log: () => records,
    clearLog() {
      records = [];
    },
    async idle(timeoutMs = 10_000) {
      const deadline = performance.now() + timeoutMs;
      while (pending > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      return pending === 0;
    },
    async stop() {
      stopped = true;
      unsubscribe();
      held.clear();
      // In-flight deliveries are abandoned, not awaited: the service is going away.
      await agent.destroy();
    },
  };
}
