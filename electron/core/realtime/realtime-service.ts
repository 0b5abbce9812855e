/**
 * Live events for one workspace session: the listener (one unguessable path), a tunnel kept up by
 * the supervisor, this installation's one subscription pointed at the tunnel's URL, and the inbox
 * that applies deliveries through the reconciler. Its status ('live' | 'reconnecting' | 'polling' |
 * 'offline', with a reason) goes to `onStatus` and drives the sync engine: polling slows down only
 * while the status is 'live'.
 *
 *   const realtime = new RealtimeService({ workspaceId, session, vault, tunnel: createTunnel(settings, { vault }) });
 *   await realtime.start();   // never throws for push-path problems: they are the status
 *   …
 *   await realtime.stop();    // on quit: subscription deactivated, listener and tunnel closed
 *   await realtime.removeWorkspace(); // before the registry removes the workspace
 *
 * With `apiVersion: 'v3'` the same machinery serves V3: the route verifies Standard Webhooks, the
 * subscription is the V3 one (V3SubscriptionManager, its `whsec_` secret in the keychain), events go
 * through the V3 applier, and this installation's V2 subscription is deactivated so that the service
 * does not deliver every event twice (once per version, under different event ids).
 *
 * Keeping the subscription pointed at the tunnel's URL, and judging its deliveries, is
 * subscription-pointer.ts; this file starts and stops the parts and says the status.
 */
import type { ConnectionStatus } from '../../../shared/domain.ts';
import { parseServiceTime } from '../../../shared/time.ts';
import type { ApiWebhookSubscription } from '../api/schemas.ts';
import type { V3LocalIds } from '../api/v3/domain-map.ts';
import type { V3WebhooksApi } from '../api/v3/endpoints/webhooks.ts';
import type { V3WebhookSubscription } from '../api/v3/schemas.ts';
import { createLogger, redactText } from '../log/logger.ts';
import { isLoopbackHost, messageOf } from '../util.ts';
import { LiveInbox } from './live-inbox.ts';
import { type ReceiptOutcome, WebhookListener } from './listener.ts';
import type { LiveEvent } from './live-event.ts';
import type { RealtimeDetails, RealtimeServiceOptions } from './realtime-options.ts';
import { ReceiptBatcher } from './receipt-batcher.ts';
import { subscriptionFor, webhookSecretOf } from './subscription-choice.ts';
import { forgetWorkspaceWebhooks, SubscriptionManager } from './subscriptions.ts';
import { SubscriptionPointer } from './subscription-pointer.ts';
import { publicWebhookUrl } from './webhook-url.ts';
import { V3SubscriptionManager } from './v3-subscriptions.ts';
import { liveStatus } from './live-status.ts';
import { probeListener, type TunnelState, TunnelSupervisor } from './tunnel-supervisor.ts';

export type { RealtimeDetails, RealtimeServiceOptions, RealtimeSession } from './realtime-options.ts';

const log = createLogger('realtime');

export class RealtimeService {
  readonly #options: RealtimeServiceOptions;
  readonly #abort = new AbortController();
  #status: ConnectionStatus = { state: 'polling', reason: 'Live events are off' };
  #listener: WebhookListener | undefined;
  #supervisor: TunnelSupervisor | undefined;
  #subscriptions: SubscriptionManager | V3SubscriptionManager | undefined;
  #live: LiveInbox | undefined;
  #removeRoute: (() => void) | undefined;
  #tunnelState: TunnelState = { phase: 'idle' };
  /** The subscription pointed at the tunnel's URL, its deliveries judged (subscription-pointer.ts). */
  readonly #pointer: SubscriptionPointer;
  #fatal: string | null = null;
  #lastEventAt: number | null = null;
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #unwatchReachability: (() => void) | undefined;
  #started = false;
  #stopped = false;

  constructor(options: RealtimeServiceOptions) {
    this.#options = options;
    this.#pointer = new SubscriptionPointer({
      manager: () => this.#subscriptions as SubscriptionManager | V3SubscriptionManager,
      timing: options,
      stopped: () => this.#stopped,
      later: (ms, work) => this.#later(ms, work),
      publish: () => this.#publish(),
    });
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  details(): RealtimeDetails {
    // V3 subscriptions have no delivery counters and string ids: the UI's subscription line is V2's.
    const sub = this.subscription;
    return {
      ...this.#status,
      provider: this.#options.tunnel.kind,
      publicUrl: this.#tunnelState.phase === 'up' ? this.#tunnelState.url : null,
      lastEventAt: this.#lastEventAt,
      subscription: sub && {
        id: sub.id,
        active: sub.active,
        deliveryAttempts: sub.delivery_attempts,
        lastDeliveredAt: parseServiceTime(sub.last_delivered_at),
      },
    };
  }

  /** The full webhook URL the subscription points at (null while the tunnel is down). */
  get webhookUrl(): string | null {
    const manager = this.#subscriptions;
    return manager && this.#tunnelState.phase === 'up'
      ? publicWebhookUrl(this.#tunnelState.url, manager.path)
      : null;
  }

  /** The same path on the listener itself (tests, diagnostics). */
  get localWebhookUrl(): string | null {
    const manager = this.#subscriptions;
    return manager && this.#listener?.running ? `${this.#listener.localUrl}${manager.path}` : null;
  }

  get subscription(): ApiWebhookSubscription | null {
    const manager = this.#subscriptions;
    return manager instanceof SubscriptionManager ? manager.current : null;
  }

  /** The V3 subscription kept (V3 workspaces). */
  get v3Subscription(): V3WebhookSubscription | null {
    const manager = this.#subscriptions;
    return manager instanceof V3SubscriptionManager ? manager.current : null;
  }

  /** Starts everything; resolves once the first attempt has settled (live, or a fallback status). */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    const { session, tunnel } = this.#options;
    this.#publish();
    if (tunnel.kind === 'direct' && !isLoopbackHost(new URL(session.client.http.baseUrl).hostname)) {
      // The service would be told to deliver to 127.0.0.1: its own machine, not this one.
      return this.#fail(
        'The direct tunnel only works with a service on this computer (the demo). Choose ngrok, a Cloudflare quick tunnel or your own public URL',
      );
    }
    let secret: string;
    try {
      secret = await webhookSecretOf(this.#options.vault, this.#options.workspaceId);
    } catch (error) {
      return this.#fail(`Live events need the system keychain: ${messageOf(error)}`);
    }
    const v3 = this.#apiVersion === 'v3' ? this.#v3Parts : undefined;
    if (this.#apiVersion === 'v3' && !v3)
      return this.#fail('Live events of a V3 workspace need the V3 client');
    const chosen = await subscriptionFor({ ...this.#options, secret, v3, signal: this.#abort.signal });
    if ('problem' in chosen) return this.#fail(chosen.problem);
    this.#subscriptions = chosen.manager;
    const route = chosen.route;
    const live = new LiveInbox(session, v3?.ids);
    this.#live = live;
    live.start(); // whatever an earlier run acknowledged but did not apply
    // The service is back: point the subscription now rather than when the backoff says.
    this.#unwatchReachability = session.reachability.onChange((state) => {
      if (state.reachable) this.#pointer.serviceBack();
    });

    const listener = new WebhookListener({ port: this.#options.port ?? tunnel.localPort ?? 0 });
    try {
      await listener.start();
    } catch (error) {
      return this.#fail(`The webhook listener could not start: ${messageOf(error)}`);
    }
    this.#listener = listener;
    const receipts = new ReceiptBatcher(live.inbox, (seq, event) => live.processor.queued(seq, event));
    const manager = this.#subscriptions;
    this.#removeRoute = listener.addRoute(manager.path, {
      version: route,
      // Read per delivery: a V3 secret arrives (or changes) when the subscription is (re)created.
      get secret() {
        return manager instanceof V3SubscriptionManager ? manager.secret : secret;
      },
      receive: (event, body) => this.#record(receipts, event, body),
      // An event may be lost with it (V3 retries no 4xx; a 500 may outlast the retries): fetch it.
      refused: () => session.sync.catchUpSoon(),
    });

    this.#supervisor = new TunnelSupervisor({
      tunnel,
      localPort: listener.port,
      probe: (url) => probeListener(url, listener.id),
      ...(this.#options.healthIntervalMs ? { healthIntervalMs: this.#options.healthIntervalMs } : {}),
      ...(this.#options.probeGraceMs !== undefined ? { probeGraceMs: this.#options.probeGraceMs } : {}),
      ...(this.#options.backoff ? { backoff: this.#options.backoff } : {}),
    });
    this.#supervisor.onChange((state) => this.#tunnelChanged(state));
    await this.#supervisor.start();
    await this.#pointer.done;
  }

  /** On quit: the subscription is deactivated first (in-flight deliveries still land), then all closes. */
  async stop(): Promise<void> {
    if (!this.#started || this.#stopped) return;
    this.#stopped = true;
    this.#unwatchReachability?.();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    // In-flight subscription calls give up first, so deactivating never waits behind them.
    this.#abort.abort(new Error('realtime stopped'));
    await this.#subscriptions
      ?.deactivate({ signal: AbortSignal.timeout(5_000) })
      .catch((error: unknown) =>
        log.warn('could not deactivate the subscription', { error: messageOf(error) }),
      );
    await this.#supervisor?.stop();
    this.#removeRoute?.();
    await this.#listener?.stop();
    this.#live?.stop();
    this.#publish();
  }

  /** Before the workspace is removed: its subscriptions are deleted and its webhook secret forgotten. */
  async removeWorkspace(): Promise<void> {
    await this.stop();
    const v3 = this.#v3Parts;
    await forgetWorkspaceWebhooks({
      ...this.#options,
      session: {
        client: this.#options.session.client,
        apiVersion: this.#apiVersion,
        ...(v3 ? { v3: { webhooks: v3.webhooks } } : {}),
      },
    });
  }

  get #apiVersion(): 'v2' | 'v3' {
    return this.#options.apiVersion ?? this.#options.session.apiVersion ?? 'v2';
  }

  get #v3Parts(): { webhooks: V3WebhooksApi; ids: V3LocalIds } | undefined {
    const { v3, session } = this.#options;
    return v3 ?? (session.v3 && { webhooks: session.v3.webhooks, ids: session.store.remoteIds });
  }

  async #record(receipts: ReceiptBatcher, event: LiveEvent, body: Buffer): Promise<ReceiptOutcome> {
    await this.#options.beforeRecord?.(event, body);
    const { outcome } = await receipts.record(event, body.toString('utf8'));
    this.#lastEventAt = Date.now();
    this.#pointer.delivered();
    return outcome;
  }

  #tunnelChanged(state: TunnelState): void {
    this.#tunnelState = state;
    this.#pointer.tunnelAt(state.phase === 'up' ? state.url : null);
    this.#publish();
  }

  #publish(): void {
    const next = liveStatus({
      on: this.#started && !this.#stopped,
      fatal: this.#fatal,
      tunnelKind: this.#options.tunnel.kind,
      tunnel: this.#tunnelState,
      pointing: this.#pointer.pointing,
      deliveryProblem: this.#pointer.deliveryProblem,
    });
    if (next.reason) next.reason = redactText(next.reason);
    if (next.state === this.#status.state && next.reason === this.#status.reason) return;
    this.#status = next;
    log.info('live events status', { state: next.state, reason: next.reason });
    this.#options.session.sync.setWebhooksLive(next.state === 'live');
    try {
      this.#options.onStatus?.(next);
    } catch (error) {
      log.error('status listener failed', { error: messageOf(error) });
    }
  }

  #fail(reason: string): void {
    log.error('live events unavailable', { reason });
    this.#fatal = reason;
    this.#publish();
  }

  #later(ms: number, work: () => unknown): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (!this.#stopped) void work();
    }, ms);
    timer.unref?.();
    this.#timers.add(timer);
  }
}
