import type { ServiceSession } from '../session.ts';
import { WorkspaceSession } from '../session.ts';
import { createLogger } from '../log/logger.ts';
import { JoinedSession } from '../team/joined-session.ts';
import type { JoinedLiveEvents } from '../relay/joined-live.ts';
import {
  createTunnel,
  forgetWorkspaceWebhooks,
  RealtimeService,
  type RealtimeDetails,
} from '../realtime/index.ts';
import type { TunnelProvider } from '../../../shared/contract/views.ts';
import type { SettingsStore, WorkspaceSyncSettings } from '../settings/index.ts';
import { within } from '../util.ts';
import { vaultKeys, type Vault } from '../vault/index.ts';
import { InMemoryVault } from '../vault/memory-vault.ts';
import type { Workspace } from '../workspaces/index.ts';
import { webhookVaultFor } from './demo-workspace.ts';
import { UserFacingError } from './errors.ts';

const log = createLogger('app');

/** The open session live events are (re)started for, and the settings they follow. */
export interface LiveTarget {
  session: ServiceSession;
  workspaceId: string;
  kind: Workspace['kind'] | undefined;
  sync: WorkspaceSyncSettings;
}

export interface LiveEventsOptions {
  /** The keychain: a tunnel's token, a workspace's webhook secret. */
  vault: Vault;
  /** What live events are for now; undefined while no session is open (or it is closing). */
  target(): LiveTarget | undefined;
  /** Their status changed: the core tells the renderer. */
  announce(): void;
}

/**
 * The open workspace's live events: webhooks through a tunnel and a subscription (RealtimeService),
 * a joined desktop's relay log (JoinedLiveEvents), or none (polling only). One restart at a time,
 * in order; none ever throws for push-path trouble, which becomes the status instead.
 */
export class LiveEvents {
  readonly #options: LiveEventsOptions;
  #realtime: RealtimeService | JoinedLiveEvents | undefined;
  /** The restart under way (started without waiting when a session opens). */
  #restarts: Promise<void> = Promise.resolve();
  /** Why live events could not even be set up (the realtime service has its own status otherwise). */
  #error: string | null = null;
  readonly #demoVault = new InMemoryVault();

  constructor(options: LiveEventsOptions) {
    this.#options = options;
  }

  /** The running live events' own account; undefined while none run. */
  details(): RealtimeDetails | undefined {
    return this.#realtime?.details();
  }

  get error(): string | null {
    return this.#error;
  }

  /** The next restart waits for `gate` (a session's start-up: the cached inbox is served first). */
  waitFor(gate: Promise<void>): void {
    this.#restarts = this.#restarts.then(() => gate);
  }

  /** (Re)starts live events for the open workspace as its settings say; one restart at a time, in order. */
  restart(): Promise<void> {
    const restart = this.#restarts.then(() => this.#restartNow());
    this.#restarts = restart.catch((error: unknown) =>
      log.warn('restarting live events failed', { error: String(error) }),
    );
    return restart;
  }

  /** Off means polling only. */
  async #restartNow(): Promise<void> {
    const previous = this.#realtime;
    this.#realtime = undefined;
    this.#error = null;
    await previous
      ?.stop()
      .catch((error: unknown) => log.warn('stopping live events failed', { error: String(error) }));
    const target = this.#options.target();
    if (!target) return;
    const { session, workspaceId, sync } = target;
    this.#options.announce();
    // A joined desktop's live events are the relay's event log: no tunnel, nothing to choose.
    if (session instanceof JoinedSession) {
      const live = session.liveEvents(() => this.#options.announce());
      this.#realtime = live;
      await live.start();
      return;
    }
    if (!(session instanceof WorkspaceSession)) return;
    if (!sync.webhooksEnabled) {
      session.sync.setWebhooksLive(false);
      return;
    }
    try {
      const tunnel = createTunnel(
        {
          provider: sync.tunnel.provider,
          ...(sync.tunnel.customPublicUrl ? { customPublicUrl: sync.tunnel.customPublicUrl } : {}),
        },
        { vault: this.#options.vault },
      );
      const realtime = new RealtimeService({
        workspaceId,
        session,
        vault: webhookVaultFor(target.kind, this.#options.vault, this.#demoVault),
        tunnel,
        onStatus: () => this.#options.announce(),
      });
      this.#realtime = realtime;
      // start() never throws for push-path trouble: it becomes the status (polling, with the reason).
      await realtime.start();
    } catch (error) {
      this.#error = error instanceof Error ? error.message : String(error);
      this.#options.announce();
    }
  }

  /**
   * Before a workspace goes: its webhook subscriptions of this installation are removed from the
   * service (while its token still exists) and live events stop.
   */
  async forget(session: ServiceSession, workspaceId: string): Promise<void> {
    const realtime = this.#realtime;
    this.#realtime = undefined;
    // A joined workspace subscribed nothing: the relay's subscription is the team's.
    if (!(session instanceof WorkspaceSession)) await realtime?.stop();
    else if (realtime instanceof RealtimeService)
      await realtime
        .removeWorkspace()
        .catch((error: unknown) => log.warn('removing webhooks failed', { error: String(error) }));
    else
      await forgetWorkspaceWebhooks({
        workspaceId,
        session,
        vault: this.#options.vault,
      }).catch(() => undefined);
  }

  /**
   * Quit or switch: the subscription is deactivated, the tunnel and listener closed (once a start
   * under way has settled, so nothing is left running behind it; a stuck one is not waited for).
   */
  async stop(): Promise<void> {
    if (!(await within(this.#restarts, 5_000))) log.warn('live events were still starting; closing anyway');
    const realtime = this.#realtime;
    this.#realtime = undefined;
    if (realtime) {
      // Deactivating the subscription is a courtesy to the service: it may not hold up a quit.
      const stopping = realtime
        .stop()
        .catch((error: unknown) => log.warn('stopping live events failed', { error: String(error) }));
      if (!(await within(stopping, 5_000))) log.warn('live events did not stop in time; closing anyway');
    }
  }
}

/** How the agent chose live events to reach a workspace (Settings → Live events). */
export interface LiveChoice {
  enabled: boolean;
  provider: TunnelProvider;
  customPublicUrl?: string | undefined;
  ngrokAuthtoken?: string | undefined;
}

/** Saves that choice: the ngrok token in the keychain, the rest in the workspace's sync settings. */
export async function saveLiveChoice(
  workspaceId: string,
  input: LiveChoice,
  settings: SettingsStore,
  vault: Vault,
): Promise<void> {
  if (input.provider === 'custom' && !input.customPublicUrl) {
    throw new UserFacingError('invalid_input', 'A custom tunnel needs its public URL', {
      field: 'customPublicUrl',
    });
  }
  if (input.ngrokAuthtoken) await vault.set(vaultKeys.ngrokAuthtoken, input.ngrokAuthtoken);
  settings.update({
    workspaces: {
      [workspaceId]: {
        webhooksEnabled: input.enabled,
        tunnel: {
          provider: input.provider,
          ...(input.customPublicUrl ? { customPublicUrl: input.customPublicUrl } : {}),
        },
      },
    },
  });
}
