import type { FastifyInstance } from 'fastify';
import { type Subscription, WEBHOOK_EVENTS, type WebhookEventType } from '../../domain/model.ts';
import { presentSubscription } from '../../domain/present.ts';
import { type SandboxServices, V2 } from '../context.ts';
import { type ApiError, contactError } from '../errors.ts';
import type { Body } from '../params.ts';

const validation = (detail: string): ApiError => contactError(422, 'VALIDATION_ERROR', detail);
const subscriptionNotFound = (): ApiError => contactError(404, 'NOT_FOUND', 'Webhook subscription not found');

interface SubscriptionInput {
  webhookUrl?: string;
  version?: number;
  secret?: string | null;
  active?: boolean;
  events?: WebhookEventType[];
}

/** `{webhook_subscription:{…}}`; on create url, version and events are required. */
function readSubscription(body: unknown, creating: boolean): SubscriptionInput {
  const outer = body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
  const raw = outer.webhook_subscription;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw validation('webhook_subscription is required');
  const input = raw as Body;
  const result: SubscriptionInput = {};
  if (input.webhook_url !== undefined) {
    if (typeof input.webhook_url !== 'string') throw validation('webhook_url must be a string');
    let url: URL;
    try {
      url = new URL(input.webhook_url);
    } catch {
      throw validation(`webhook_url ${input.webhook_url} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw validation('webhook_url must be http or https');
    result.webhookUrl = input.webhook_url;
  } else if (creating) throw validation('webhook_url is required');
  if (input.version !== undefined) {
    if (input.version !== 2 && input.version !== 3) throw validation('version must be 2 or 3');
    result.version = input.version;
  } else if (creating) throw validation('version is required');
  if (input.events !== undefined) {
    if (!Array.isArray(input.events) || input.events.length === 0)
      throw validation('events must be a non-empty array');
    const unknown = input.events.filter((e) => !(WEBHOOK_EVENTS as readonly unknown[]).includes(e));
    if (unknown.length > 0) throw validation(`Unknown events: ${unknown.map(String).join(', ')}`);
    result.events = [...new Set(input.events as WebhookEventType[])];
  } else if (creating) throw validation('events is required');
  if (input.secret !== undefined) {
    if (input.secret !== null && typeof input.secret !== 'string')
      throw validation('secret must be a string');
    result.secret = input.secret === null || input.secret === '' ? null : input.secret;
  }
  if (input.active !== undefined) {
    if (typeof input.active !== 'boolean') throw validation('active must be a boolean');
    result.active = input.active;
  }
  return result;
}

export function registerSubscriptionRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  const config = { errorFormat: 'contact' as const };
  const path = `${V2}/webhook_subscriptions`;

  const subscriptionOf = (subscriptions: Map<number, Subscription>, raw: string): Subscription => {
    const found = /^\d{1,15}$/.test(raw) ? subscriptions.get(Number(raw)) : undefined;
    if (!found || found.family !== 'v2') throw subscriptionNotFound();
    return found;
  };

  app.get(path, { config }, async (request) => ({
    webhook_subscriptions: [...request.org.subscriptions.values()]
      .filter((s) => s.family === 'v2')
      .map(presentSubscription),
  }));

  app.post(path, { config }, async (request, reply) => {
    const input = readSubscription(request.body, true);
    const now = world.clock.now();
    const subscription: Subscription = {
      id: world.nextId('subscription'),
      family: 'v2',
      phoneNumbers: [],
      webhookUrl: input.webhookUrl as string,
      version: input.version as number,
      events: input.events as WebhookEventType[],
      active: input.active ?? true,
      secret: input.secret ?? null,
      lastDeliveredAt: null,
      deliveryAttempts: 0,
      createdAt: now,
      updatedAt: now,
    };
    request.org.subscriptions.set(subscription.id, subscription);
    return reply.status(201).send({ webhook_subscription: presentSubscription(subscription) });
  });

  app.put(`${path}/:id`, { config }, async (request) => {
    const subscription = subscriptionOf(request.org.subscriptions, (request.params as { id: string }).id);
    const input = readSubscription(request.body, false);
    if (input.webhookUrl !== undefined) subscription.webhookUrl = input.webhookUrl;
    if (input.version !== undefined) subscription.version = input.version;
    if (input.events !== undefined) subscription.events = input.events;
    if (input.secret !== undefined) subscription.secret = input.secret;
    if (input.active !== undefined) subscription.active = input.active;
    subscription.updatedAt = world.clock.now();
    return { webhook_subscription: presentSubscription(subscription) };
  });

  app.delete(`${path}/:id`, { config }, async (request, reply) => {
    const subscriptions = request.org.subscriptions;
    const subscription = subscriptionOf(subscriptions, (request.params as { id: string }).id);
    subscriptions.delete(subscription.id);
    return reply.status(204).send();
  });
}
