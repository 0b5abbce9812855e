/**
 * V3 webhook subscriptions (`/webhook-subscriptions`): UUID ids, `whsec_` signing secrets returned
 * only on create, V3 event names, an optional line filter. Deliveries use Standard Webhooks.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Org, type Subscription, V3_WEBHOOK_EVENTS } from '../../domain/model.ts';
import { fromV3Id, isUuid } from '../../domain/v3/ids.ts';
import { presentSubscriptionV3 } from '../../domain/v3/shapes.ts';
import { V3_WEBHOOK_VERSION } from '../../webhooks/envelope.ts';
import type { SandboxServices } from '../context.ts';
import { v3 } from './errors.ts';
import { type Body, bodyOf, lineOfNumber } from './read.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

function targetUrl(raw: unknown): string {
  if (typeof raw !== 'string') throw v3(1005, 'target_url must be a URL');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw v3(1005, 'target_url is not a URL');
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp)
    throw v3(1005, 'target_url must be https (http only on loopback)');
  const pinned = url.searchParams.get('version');
  if (pinned !== null && pinned !== V3_WEBHOOK_VERSION)
    throw v3(1005, `this service speaks webhook version ${V3_WEBHOOK_VERSION} only`);
  return raw;
}

function events(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length === 0) throw v3(1005, 'subscribed_events must be a non-empty array');
  const unknown = raw.filter((e) => !(V3_WEBHOOK_EVENTS as readonly unknown[]).includes(e));
  if (unknown.length > 0) throw v3(1005, `unknown events: ${unknown.map(String).join(', ')}`);
  return [...new Set(raw as string[])];
}

function lines(org: Org, raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw v3(1005, 'phone_numbers must be an array');
  return raw.map((n, i) => lineOfNumber(org, n, `phone_numbers[${i}]`).phoneNumber);
}

export function registerV3SubscriptionRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  const path = '/webhook-subscriptions';
  const subscriptionOf = (org: Org, raw: string): Subscription => {
    if (!isUuid(raw)) throw v3(2010, 'Subscription ID must be a UUID');
    const id = fromV3Id(org, 'subscription', raw);
    const found = id === undefined ? undefined : org.subscriptions.get(id);
    if (!found || found.family !== 'v3') throw v3(2010);
    return found;
  };

  app.post(path, async (request, reply) => {
    const org = request.org;
    const body = bodyOf(request.body);
    if (body.target_url === undefined) throw v3(1001, 'target_url is required');
    if (body.subscribed_events === undefined) throw v3(1001, 'subscribed_events is required');
    const now = world.clock.now();
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    const subscription: Subscription = {
      id: world.nextId('subscription'),
      family: 'v3',
      webhookUrl: targetUrl(body.target_url),
      version: 3,
      events: events(body.subscribed_events),
      phoneNumbers: lines(org, body.phone_numbers),
      active: true,
      secret,
      lastDeliveredAt: null,
      deliveryAttempts: 0,
      createdAt: now,
      updatedAt: now,
    };
    org.subscriptions.set(subscription.id, subscription);
    return reply.status(201).send({ ...presentSubscriptionV3(org, subscription), signing_secret: secret });
  });

  app.get(path, async (request) => ({
    subscriptions: [...request.org.subscriptions.values()]
      .filter((s) => s.family === 'v3')
      .map((s) => presentSubscriptionV3(request.org, s)),
  }));

  app.get(`${path}/:id`, async (request) =>
    presentSubscriptionV3(request.org, subscriptionOf(request.org, (request.params as { id: string }).id)),
  );

  app.put(`${path}/:id`, async (request) => {
    const org = request.org;
    const subscription = subscriptionOf(org, (request.params as { id: string }).id);
    const body: Body = bodyOf(request.body);
    const url = body.target_url === undefined ? undefined : targetUrl(body.target_url);
    const list = body.subscribed_events === undefined ? undefined : events(body.subscribed_events);
    const numbers = body.phone_numbers === undefined ? undefined : lines(org, body.phone_numbers);
    if (body.is_active !== undefined && typeof body.is_active !== 'boolean')
      throw v3(1005, 'is_active must be a boolean');
    if (url !== undefined) subscription.webhookUrl = url;
    if (list !== undefined) subscription.events = list;
    if (numbers !== undefined) subscription.phoneNumbers = numbers;
    if (typeof body.is_active === 'boolean') subscription.active = body.is_active;
    subscription.updatedAt = world.clock.now();
    return presentSubscriptionV3(org, subscription);
  });

  app.delete(`${path}/:id`, async (request, reply) => {
    const subscription = subscriptionOf(request.org, (request.params as { id: string }).id);
    request.org.subscriptions.delete(subscription.id);
    return reply.status(204).send();
  });
}
