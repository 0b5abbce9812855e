/**
 * Which subscription a workspace's live events keep: V2's (SubscriptionManager, signed with the
 * workspace's webhook secret) or V3's (V3SubscriptionManager, its `whsec_` secret in the keychain),
 * and the webhook secret itself, made once per workspace and kept in the vault.
 */
import type { ApiWebhookSubscription } from '../api/schemas.ts';
import type { V3LocalIds } from '../api/v3/domain-map.ts';
import type { V3WebhooksApi } from '../api/v3/endpoints/webhooks.ts';
import type { V3WebhookSubscription } from '../api/v3/schemas.ts';
import { createLogger, registerSecret } from '../log/logger.ts';
import { messageOf } from '../util.ts';
import { vaultKeys, type Vault } from '../vault/vault.ts';
import type { WebhookRoute } from './listener.ts';
import type { RealtimeSession } from './realtime-options.ts';
import { newWebhookSecret } from './signature.ts';
import { type DeliveryCounters, SubscriptionManager } from './subscriptions.ts';
import { V3SubscriptionManager } from './v3-subscriptions.ts';

const log = createLogger('realtime');

/** Where the store remembers which subscription this workspace kept (sync_cursors). */
const SUBSCRIPTION_CURSOR = 'realtime:subscription-id';
const V3_SUBSCRIPTION_CURSOR = 'realtime:v3-subscription-id';

/** The workspace's webhook secret (also the key of its unguessable path), made on first use. */
export async function webhookSecretOf(vault: Vault, workspaceId: string): Promise<string> {
  const key = vaultKeys.webhookSecret(workspaceId);
  let secret = await vault.get(key);
  if (!secret) {
    secret = newWebhookSecret();
    await vault.set(key, secret);
  }
  registerSecret(secret);
  return secret;
}

/**
 * The subscription manager to keep and the route that verifies its deliveries; or, when the V3
 * secret cannot be read from the keychain, why not.
 */
export async function subscriptionFor(options: {
  session: RealtimeSession;
  vault: Vault;
  workspaceId: string;
  secret: string;
  signal: AbortSignal;
  v3: { webhooks: V3WebhooksApi; ids: V3LocalIds } | undefined;
}): Promise<
  | { manager: SubscriptionManager | V3SubscriptionManager; route: WebhookRoute['version'] }
  | { problem: string }
> {
  const { session, workspaceId, secret, signal, v3 } = options;
  const v2Subscriptions = new SubscriptionManager({
    api: session.client.webhooks,
    workspaceId,
    secret,
    signal,
    rememberedId: Number(session.store.cursors.get(SUBSCRIPTION_CURSOR)) || null,
    onKept: (id) => session.store.cursors.set(SUBSCRIPTION_CURSOR, String(id)),
  });
  if (!v3) return { manager: v2Subscriptions, route: 'v2' };
  const manager = new V3SubscriptionManager({
    api: v3.webhooks,
    vault: options.vault,
    workspaceId,
    pathKey: secret,
    signal,
    rememberedId: session.store.cursors.get(V3_SUBSCRIPTION_CURSOR) ?? null,
    onKept: (id) => session.store.cursors.set(V3_SUBSCRIPTION_CURSOR, id),
  });
  try {
    await manager.load();
  } catch (error) {
    return { problem: `Live events need the system keychain: ${messageOf(error)}` };
  }
  // Both versions subscribed would deliver every event twice, under different ids.
  void v2Subscriptions
    .deactivate({ signal })
    .catch((error: unknown) =>
      log.debug('could not deactivate the V2 subscription', { error: messageOf(error) }),
    );
  return { manager, route: 'v3' };
}

/** What the service says of a subscription of either version (V3 keeps no delivery counters). */
export function viewOf(subscription: ApiWebhookSubscription | V3WebhookSubscription): {
  active: boolean;
  url: string;
  counters: DeliveryCounters;
} {
  if ('target_url' in subscription) {
    return {
      active: subscription.is_active,
      url: subscription.target_url,
      counters: { attempts: 0, lastDeliveredAt: null },
    };
  }
  return {
    active: subscription.active,
    url: subscription.webhook_url,
    counters: {
      attempts: subscription.delivery_attempts,
      lastDeliveredAt: subscription.last_delivered_at ?? null,
    },
  };
}
