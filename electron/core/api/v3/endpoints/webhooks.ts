import { registerSecret } from '../../../log/logger.ts';
import type { CallOptions } from '../../http.ts';
import type { EndpointContext } from '../../endpoints/context.ts';
import {
  type V3CreatedWebhookSubscription,
  type V3WebhookSubscription,
  v3CreatedWebhookSubscriptionSchema,
  v3WebhookSubscriptionListSchema,
  v3WebhookSubscriptionSchema,
} from '../schemas.ts';
import { v3Segment } from './segment.ts';

export interface V3WebhookSubscriptionInput {
  /** https, or http on a loopback address. May pin `?version=2026-02-03`. */
  targetUrl: string;
  events: readonly string[];
  /** Only events of these lines (E.164). Default: every line. */
  phoneNumbers?: readonly string[];
}

export interface V3WebhookSubscriptionChange {
  targetUrl?: string;
  events?: readonly string[];
  active?: boolean;
}

/** `/webhook-subscriptions`. The signing secret is returned by `create` only: store it then. */
export class V3WebhooksApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  async list(options: CallOptions = {}): Promise<V3WebhookSubscription[]> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: '/webhook-subscriptions',
      schema: v3WebhookSubscriptionListSchema,
    });
    return data;
  }

  /** Not retried on failure (no idempotency key): a repeat could leave two subscriptions. */
  async create(
    input: V3WebhookSubscriptionInput,
    options: CallOptions = {},
  ): Promise<V3CreatedWebhookSubscription> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: '/webhook-subscriptions',
      json: {
        target_url: input.targetUrl,
        subscribed_events: [...input.events],
        ...(input.phoneNumbers === undefined ? {} : { phone_numbers: [...input.phoneNumbers] }),
      },
      schema: v3CreatedWebhookSubscriptionSchema,
    });
    // A credential from here on: no log line or error may show it.
    registerSecret(data.signing_secret);
    return data;
  }

  async get(id: string, options: CallOptions = {}): Promise<V3WebhookSubscription> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: this.#path(id),
      schema: v3WebhookSubscriptionSchema,
    });
    return data;
  }

  async update(
    id: string,
    change: V3WebhookSubscriptionChange,
    options: CallOptions = {},
  ): Promise<V3WebhookSubscription> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'PUT',
      path: this.#path(id),
      idempotent: true,
      json: {
        ...(change.targetUrl === undefined ? {} : { target_url: change.targetUrl }),
        ...(change.events === undefined ? {} : { subscribed_events: [...change.events] }),
        ...(change.active === undefined ? {} : { is_active: change.active }),
      },
      schema: v3WebhookSubscriptionSchema,
    });
    return data;
  }

  async delete(id: string, options: CallOptions = {}): Promise<void> {
    await this.#ctx.http.request({ ...options, method: 'DELETE', path: this.#path(id), idempotent: true });
  }

  #path(id: string): string {
    return `/webhook-subscriptions/${v3Segment(id, 'Webhook subscription')}`;
  }
}
