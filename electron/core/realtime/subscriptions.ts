/**
 * Keeps exactly one active webhook subscription per workspace for this installation, pointed at the
 * current public URL. The spec warns that duplicate subscriptions duplicate every delivery, so the
 * organization's list is read first and this installation's earlier subscriptions are reused.
 *
 * Which subscriptions are "ours": those whose URL path ends in `/hooks/<workspaceId>/<segment>`.
 * Workspace ids are 72 random bits made by this installation, so no other installation (or other
 * software) produces that path; the host and any prefix before `/hooks` are ignored, because
 * ngrok and Cloudflare quick tunnels hand out a new host on every start. The last segment is derived
 * from the secret (HMAC), which makes the path unguessable without making it change between runs.
 */
import { createHmac } from 'node:crypto';
import type { CallOptions } from '../api/http.ts';
import type { WebhooksApi } from '../api/endpoints/webhooks.ts';
import type { V3WebhooksApi } from '../api/v3/endpoints/webhooks.ts';
import { type ApiWebhookSubscription, WEBHOOK_EVENTS } from '../api/schemas.ts';
import { createLogger } from '../log/logger.ts';
import { vaultKeys, type Vault } from '../vault/vault.ts';
// A cycle of functions only (each module's exports are used at call time).
import { forgetWorkspaceV3Webhooks } from './v3-subscriptions.ts';
import { publicWebhookUrl } from './webhook-url.ts';

const log = createLogger('webhooks');

/** Every V2 event type: the inbox shows them all. */
const SUBSCRIBED_EVENTS = WEBHOOK_EVENTS;

/** The listener path of a workspace: `/hooks/<workspaceId>/<HMAC(secret, workspaceId), base64url>`. */
export function webhookPathFor(workspaceId: string, secret: string): string {
  const marker = createHmac('sha256', secret)
    .update(`parley/webhook-path/${workspaceId}`)
    .digest('base64url');
  return `/hooks/${workspaceId}/${marker}`;
}

/** True for a subscription this installation made for this workspace (see the rule above). */
export function isOwnSubscription(subscription: { webhook_url: string }, workspaceId: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(subscription.webhook_url).pathname;
  } catch {
    return false;
  }
  const segments = pathname.split('/');
  const [last, id, hooks] = [segments.at(-1), segments.at(-2), segments.at(-3)];
  return hooks === 'hooks' && id === workspaceId && !!last && /^[A-Za-z0-9_-]+$/.test(last);
}

export interface SubscriptionManagerOptions {
  api: WebhooksApi;
  workspaceId: string;
  secret: string;
  /** Aborts requests when the realtime service stops. */
  signal?: AbortSignal;
  /** The id kept last time (stored locally), preferred over other subscriptions of ours. */
  rememberedId?: number | null;
  /** Told the id of the subscription kept, so the next run can prefer it. */
  onKept?: (id: number) => void;
}

export class SubscriptionManager {
  readonly path: string;
  readonly #api: WebhooksApi;
  readonly #workspaceId: string;
  readonly #secret: string;
  readonly #signal: AbortSignal | undefined;
  readonly #onKept: ((id: number) => void) | undefined;
  #rememberedId: number | null;
  #current: ApiWebhookSubscription | null = null;
  /** One change at a time: an ensure racing a deactivate could leave two active subscriptions. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: SubscriptionManagerOptions) {
    this.#api = options.api;
    this.#workspaceId = options.workspaceId;
    this.#secret = options.secret;
    this.#signal = options.signal;
    this.#onKept = options.onKept;
    this.#rememberedId = options.rememberedId ?? null;
    this.path = webhookPathFor(options.workspaceId, options.secret);
  }

  /** The subscription as last written or read (null before the first ensure). */
  get current(): ApiWebhookSubscription | null {
    return this.#current;
  }

  /**
   * Points this installation's subscription at `publicBaseUrl` + path, active, with every V2 event
   * and our secret: updates the one it finds (creating one only when there is none) and
   * deactivates any other of ours.
   */
  ensure(publicBaseUrl: string): Promise<ApiWebhookSubscription> {
    return this.#serial(async () => {
      const url = publicWebhookUrl(publicBaseUrl, this.path);
      const mine = await this.#mine();
      const keeper =
        mine.find((s) => s.active && s.webhook_url === url) ??
        mine.find((s) => s.id === (this.#current?.id ?? this.#rememberedId)) ??
        mine.find((s) => s.active) ??
        mine.at(-1);
      const wanted = { url, events: SUBSCRIBED_EVENTS, version: 2, secret: this.#secret, active: true };
      const kept = keeper
        ? await this.#api.update(keeper.id, wanted, this.#call())
        : await this.#api.create(wanted, this.#call());
      for (const stray of mine) {
        if (stray.id === kept.id || !stray.active) continue;
        log.info('deactivating a duplicate subscription of this installation', { id: stray.id });
        await this.#api.update(stray.id, { active: false }, this.#call());
      }
      if (!keeper || keeper.webhook_url !== url)
        log.info('webhook subscription points at a new URL', { id: kept.id });
      this.#current = kept;
      if (kept.id !== this.#rememberedId) {
        this.#rememberedId = kept.id;
        this.#onKept?.(kept.id);
      }
      return kept;
    });
  }

  /** Reads our subscription back (for health): null when it is gone. */
  inspect(): Promise<ApiWebhookSubscription | null> {
    return this.#serial(async () => {
      const mine = await this.#mine();
      const found = mine.find((s) => s.id === this.#current?.id) ?? mine.find((s) => s.active) ?? null;
      if (found) this.#current = found;
      return found;
    });
  }

  /** On quit: every subscription of ours inactive, so the service stops delivering to a closed app. */
  deactivate(options: CallOptions = {}): Promise<void> {
    return this.#serial(async () => {
      for (const s of await this.#mine(options)) {
        if (s.active) await this.#api.update(s.id, { active: false }, { ...this.#call(), ...options });
      }
    });
  }

  /** When the workspace is removed: delete ours (deactivate where the service cannot delete). */
  remove(options: CallOptions = {}): Promise<number> {
    return this.#serial(async () => {
      const removed = await removeOwnSubscriptions(this.#api, this.#workspaceId, {
        ...this.#call(),
        ...options,
      });
      this.#current = null;
      return removed;
    });
  }

  async #mine(options: CallOptions = {}): Promise<ApiWebhookSubscription[]> {
    const all = await this.#api.list({ ...this.#call(), ...options });
    return all.filter((s) => isOwnSubscription(s, this.#workspaceId)).sort((a, b) => a.id - b.id);
  }

  #call(): CallOptions {
    return this.#signal ? { signal: this.#signal, priority: 'background' } : { priority: 'background' };
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/**
 * Deletes every subscription this installation made for `workspaceId` (deactivating those the
 * service cannot delete: the spec lists no DELETE). Needs no secret, so it also works for a
 * workspace whose realtime service never started. Resolves how many there were.
 */
async function removeOwnSubscriptions(
  api: WebhooksApi,
  workspaceId: string,
  options: CallOptions = {},
): Promise<number> {
  const mine = (await api.list(options)).filter((s) => isOwnSubscription(s, workspaceId));
  for (const s of mine) {
    const { deleted } = await api.delete(s.id, options);
    if (!deleted && s.active) await api.update(s.id, { active: false }, options);
  }
  return mine.length;
}

/**
 * Deletes a workspace's subscriptions (this installation's, V2 and V3) and its webhook secrets. Works
 * without a running RealtimeService; call it before the registry removes the workspace's secrets.
 */
export async function forgetWorkspaceWebhooks(options: {
  workspaceId: string;
  session: { client: { webhooks: WebhooksApi }; apiVersion?: 'v2' | 'v3'; v3?: { webhooks: V3WebhooksApi } };
  vault: Pick<Vault, 'delete'>;
}): Promise<void> {
  const { session, workspaceId, vault } = options;
  await removeOwnSubscriptions(session.client.webhooks, workspaceId, {
    signal: AbortSignal.timeout(10_000),
  });
  await vault.delete(vaultKeys.webhookSecret(workspaceId));
  if (session.v3) {
    // A V2 workspace may have been V3 before; a service without V3 only makes this fail.
    await forgetWorkspaceV3Webhooks({ workspaceId, api: session.v3.webhooks, vault }).catch(
      (error: unknown) => {
        if (session.apiVersion === 'v3') throw error;
      },
    );
  }
}

export interface DeliveryCounters {
  attempts: number;
  lastDeliveredAt: string | null;
}

/**
 * From the service's own counters between two reads: how many delivery attempts failed, judged
 * by attempts that did not move `last_delivered_at` while nothing arrived here. 0 = healthy.
 */
export function failedDeliveriesBetween(
  before: DeliveryCounters,
  after: DeliveryCounters,
  arrivedMeanwhile: boolean,
): number {
  if (arrivedMeanwhile || after.lastDeliveredAt !== before.lastDeliveredAt) return 0;
  return Math.max(0, after.attempts - before.attempts);
}
