import { webhookSubscriptionListResponse, webhookSubscriptionResponse } from '../envelopes.ts';
import { isPartnerApiError } from '../errors.ts';
import type { CallOptions } from '../http.ts';
import { registerSecret } from '../../log/logger.ts';
import type { ApiWebhookSubscription, WebhookEventType } from '../schemas.ts';
import { type EndpointContext, idSegment } from './context.ts';

export interface WebhookSubscriptionInput {
  url: string;
  events: readonly WebhookEventType[];
  /** 2 (default) for the V2 envelope. */
  version?: number;
  /** Signs deliveries (HMAC-SHA256). The service never returns it. */
  secret?: string;
  active?: boolean;
}

/** Webhook subscriptions: `/webhook_subscriptions`. */
export class WebhooksApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  async list(options: CallOptions = {}): Promise<ApiWebhookSubscription[]> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: '/webhook_subscriptions',
      schema: webhookSubscriptionListResponse,
    });
    return data;
  }

  /** Subscriptions with the same URL and events each deliver every event: check `list` first. */
  async create(input: WebhookSubscriptionInput, options: CallOptions = {}): Promise<ApiWebhookSubscription> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: '/webhook_subscriptions',
      json: { webhook_subscription: this.#body({ version: 2, ...input }) },
      schema: webhookSubscriptionResponse,
    });
    return data;
  }

  /** Changes only the given fields (the sandbox treats PUT as partial). `secret: ''` removes the secret. */
  async update(
    subscriptionId: number,
    patch: Partial<WebhookSubscriptionInput>,
    options: CallOptions = {},
  ): Promise<ApiWebhookSubscription> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'PUT',
      path: `/webhook_subscriptions/${idSegment(subscriptionId, 'Webhook subscription')}`,
      json: { webhook_subscription: this.#body(patch) },
      schema: webhookSubscriptionResponse,
    });
    return data;
  }

  /**
   * Deletes a subscription. The spec does not list DELETE, so a service without it (404/405) is not an
   * error: `deleted` is false and the caller should deactivate instead (`update(id, {active:false})`).
   */
  async delete(subscriptionId: number, options: CallOptions = {}): Promise<{ deleted: boolean }> {
    try {
      await this.#ctx.http.request({
        ...options,
        method: 'DELETE',
        path: `/webhook_subscriptions/${idSegment(subscriptionId, 'Webhook subscription')}`,
      });
      return { deleted: true };
    } catch (error) {
      if (isPartnerApiError(error) && (error.status === 404 || error.status === 405))
        return { deleted: false };
      throw error;
    }
  }

  #body(input: Partial<WebhookSubscriptionInput>): Record<string, unknown> {
    // The secret travels in this body; make sure no log line can ever show it.
    if (input.secret) registerSecret(input.secret);
    const body: Record<string, unknown> = {};
    if (input.url !== undefined) body.webhook_url = input.url;
    if (input.version !== undefined) body.version = input.version;
    if (input.events !== undefined) body.events = [...input.events];
    if (input.secret !== undefined) body.secret = input.secret;
    if (input.active !== undefined) body.active = input.active;
    return body;
  }
}
