/**
 * Keeps exactly one active V3 webhook subscription (`/webhook-subscriptions`) per workspace for this
 * installation, like SubscriptionManager does for V2, with one difference that shapes it: V3 hands out
 * the `whsec_` signing secret once, in the create answer. The secret is kept in the keychain
 * (`vaultKeys.webhookSecretV3`, never logged, never in a file) together with the id of the
 * subscription it belongs to (in the store), and a subscription whose secret this installation does
 * not hold is of no use: it is deleted and a new one created.
 *
 * Which subscriptions are "ours": target URL path ending in `/hooks/<workspaceId>/v3/<segment>` (the
 * V2 rule with a `v3` segment, so the two versions' paths never meet on the listener). The last
 * segment is derived from the workspace's local path key (the V2 webhook secret, a random local
 * value), so the path is unguessable and stays the same across runs and secret changes.
 */
import { createHmac } from 'node:crypto';
import type { CallOptions } from '../api/http.ts';
import type { V3WebhooksApi } from '../api/v3/endpoints/webhooks.ts';
import type { V3WebhookSubscription } from '../api/v3/schemas.ts';
import { createLogger, registerSecret } from '../log/logger.ts';
import { V3_EVENT_TYPES } from '../api/v3/webhook-events.ts';
import { vaultKeys, type Vault } from '../vault/vault.ts';
import { publicWebhookUrl } from './webhook-url.ts';

const log = createLogger('webhooks');

/** Every V3 event type this client applies. */
const V3_SUBSCRIBED_EVENTS: readonly string[] = V3_EVENT_TYPES;

/** `/hooks/<workspaceId>/v3/<HMAC(pathKey, workspaceId), base64url>`. */
export function v3WebhookPathFor(workspaceId: string, pathKey: string): string {
  const marker = createHmac('sha256', pathKey)
    .update(`parley/webhook-path-v3/${workspaceId}`)
    .digest('base64url');
  return `/hooks/${workspaceId}/v3/${marker}`;
}

/** True for a V3 subscription this installation made for this workspace. */
export function isOwnV3Subscription(subscription: { target_url: string }, workspaceId: string): boolean {
  let pathname: string;
  try {
    pathname = new URL(subscription.target_url).pathname;
  } catch {
    return false;
  }
  const [hooks, id, version, last] = pathname.split('/').slice(-4);
  return (
    hooks === 'hooks' && id === workspaceId && version === 'v3' && !!last && /^[A-Za-z0-9_-]+$/.test(last)
  );
}

export interface V3SubscriptionManagerOptions {
  api: V3WebhooksApi;
  vault: Pick<Vault, 'get' | 'set' | 'delete'>;
  workspaceId: string;
  /** A local random value the path is derived from (the workspace's V2 webhook secret). */
  pathKey: string;
  signal?: AbortSignal;
  /** The id of the subscription the kept secret belongs to (stored locally). */
  rememberedId?: string | null;
  /** Told the id of a subscription created (its secret is in the keychain by then). */
  onKept?: (id: string) => void;
}

export class V3SubscriptionManager {
  readonly path: string;
  readonly #options: V3SubscriptionManagerOptions;
  #secret: string | null = null;
  #rememberedId: string | null;
  #current: V3WebhookSubscription | null = null;
  /** One change at a time: an ensure racing a deactivate could leave two active subscriptions. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: V3SubscriptionManagerOptions) {
    this.#options = options;
    this.#rememberedId = options.rememberedId ?? null;
    this.path = v3WebhookPathFor(options.workspaceId, options.pathKey);
  }

  /** The signing secret deliveries are verified with; null until there is one. */
  get secret(): string | null {
    return this.#secret;
  }

  get current(): V3WebhookSubscription | null {
    return this.#current;
  }

  /** Reads the kept secret from the keychain (throws when the keychain cannot be used). */
  async load(): Promise<void> {
    const secret = await this.#options.vault.get(vaultKeys.webhookSecretV3(this.#options.workspaceId));
    if (secret) registerSecret(secret);
    this.#secret = secret;
  }

  /**
   * Points this installation's subscription at `publicBaseUrl` + path, active, with every V3 event:
   * the one whose secret is kept is updated (PUT, only when something differs); without a kept
   * secret (or its subscription) ours are deleted and one is created. Other ones of ours are deleted.
   */
  ensure(publicBaseUrl: string): Promise<V3WebhookSubscription> {
    return this.#serial(async () => {
      const url = publicWebhookUrl(publicBaseUrl, this.path);
      const mine = await this.#mine();
      const keeper = this.#secret ? mine.find((s) => s.id === this.#rememberedId) : undefined;
      for (const stray of mine) {
        if (stray.id === keeper?.id) continue;
        log.info('deleting a V3 subscription of this installation whose secret is not kept', {
          id: stray.id,
        });
        await this.#options.api.delete(stray.id, this.#call());
      }
      let kept: V3WebhookSubscription;
      if (!keeper) {
        kept = await this.#create(url);
      } else if (
        keeper.target_url !== url ||
        !keeper.is_active ||
        !sameEvents(keeper.subscribed_events, V3_SUBSCRIBED_EVENTS)
      ) {
        kept = await this.#options.api.update(
          keeper.id,
          { targetUrl: url, events: V3_SUBSCRIBED_EVENTS, active: true },
          this.#call(),
        );
        log.info('V3 webhook subscription updated', { id: kept.id });
      } else {
        kept = keeper;
      }
      this.#current = kept;
      return kept;
    });
  }

  /** Reads our subscription back (for health): null when it is gone. */
  inspect(): Promise<V3WebhookSubscription | null> {
    return this.#serial(async () => {
      const found = (await this.#mine()).find((s) => s.id === this.#rememberedId) ?? null;
      if (found) this.#current = found;
      return found;
    });
  }

  /** On quit: every subscription of ours inactive, so the service stops delivering to a closed app. */
  deactivate(options: CallOptions = {}): Promise<void> {
    return this.#serial(async () => {
      for (const s of await this.#mine(options)) {
        if (s.is_active)
          await this.#options.api.update(s.id, { active: false }, { ...this.#call(), ...options });
      }
    });
  }

  /** When the workspace is removed: ours deleted and the secret forgotten. Resolves how many. */
  remove(options: CallOptions = {}): Promise<number> {
    return this.#serial(async () => {
      const mine = await this.#mine(options);
      for (const s of mine) await this.#options.api.delete(s.id, { ...this.#call(), ...options });
      await this.#options.vault.delete(vaultKeys.webhookSecretV3(this.#options.workspaceId));
      this.#secret = null;
      this.#current = null;
      return mine.length;
    });
  }

  async #create(url: string): Promise<V3WebhookSubscription> {
    const created = await this.#options.api.create(
      { targetUrl: url, events: V3_SUBSCRIBED_EVENTS },
      this.#call(),
    );
    // Deliveries may follow the answer at once: the listener verifies with the new secret from now.
    this.#secret = created.signing_secret;
    this.#rememberedId = created.id;
    await this.#options.vault.set(
      vaultKeys.webhookSecretV3(this.#options.workspaceId),
      created.signing_secret,
    );
    this.#options.onKept?.(created.id);
    log.info('V3 webhook subscription created', { id: created.id });
    const { signing_secret: _secret, ...subscription } = created;
    return subscription;
  }

  async #mine(options: CallOptions = {}): Promise<V3WebhookSubscription[]> {
    const all = await this.#options.api.list({ ...this.#call(), ...options });
    return all.filter((s) => isOwnV3Subscription(s, this.#options.workspaceId));
  }

  #call(): CallOptions {
    const { signal } = this.#options;
    return signal ? { signal, priority: 'background' } : { priority: 'background' };
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

function sameEvents(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((e) => set.has(e));
}

/**
 * Deletes a workspace's V3 subscriptions (this installation's) and forgets their secret; works
 * without a running RealtimeService.
 */
export async function forgetWorkspaceV3Webhooks(options: {
  workspaceId: string;
  api: V3WebhooksApi;
  vault: Pick<Vault, 'delete'>;
}): Promise<void> {
  const call = { signal: AbortSignal.timeout(10_000) };
  for (const s of await options.api.list(call)) {
    if (isOwnV3Subscription(s, options.workspaceId)) await options.api.delete(s.id, call);
  }
  await options.vault.delete(vaultKeys.webhookSecretV3(options.workspaceId));
}
