import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StorageStatus } from '../../../shared/contract/errors.ts';
import type { EventName, Events } from '../../../shared/contract/events.ts';
import type {
  LiveStatus,
  PublicSettings,
  TunnelProvider,
  WorkspaceInfo,
  WorkspaceList,
} from '../../../shared/contract/views.ts';
import { stagedIdOf } from '../../../shared/contract/staged.ts';
import { vaultKeys } from '../vault/index.ts';
import { isPartnerApiError } from '../api/errors.ts';
import { AttachmentCache, type CachedAttachmentRow } from '../attachments/attachment-cache.ts';
import { createLogger } from '../log/logger.ts';
import { within } from '../util.ts';
import { type ServiceSession, type SessionOptions, WorkspaceSession } from '../session.ts';
import { probeRelay } from '../relay/join.ts';
import { JoinedSession, type JoinedSessionOptions, type RelayPortsFactory } from '../relay/joined-session.ts';
import type { JoinedLiveEvents } from '../relay/joined-live.ts';
import { RelayConnectionError } from '../relay/relay-link.ts';
import { relayPorts } from '../relay/relay-ports.ts';
import type { SettingsStore } from '../settings/index.ts';
import { workspaceSyncOf } from '../settings/index.ts';
import { STORE_EVENT_NAMES, type StoreEvents } from '../store/events.ts';
import { storageProblemOf } from '../store/storage-errors.ts';
import type { SyncOptions } from '../sync/engine.ts';
import type { Vault } from '../vault/index.ts';
import {
  openWorkspaceRegistry,
  probeWorkspaceVersions,
  type DemoSandboxPort,
  type WorkspaceRegistry,
} from '../workspaces/index.ts';
import { createTunnel, forgetWorkspaceWebhooks, RealtimeService } from '../realtime/index.ts';
import { InMemoryVault } from '../vault/memory-vault.ts';
import { createDispatcher, type DispatchResult } from './dispatch.ts';
import { UserFacingError } from './errors.ts';
import type { HandlerContext, HostPorts, LocalAttachment } from './handler-context.ts';
import { createHandlers } from './handlers.ts';
import { Notifier } from './notifier.ts';

const log = createLogger('app');
/** How long a cached inbox waits for a page to list it before the session catches up anyway. */
const INBOX_GATE_MS = 2_000;

export type { HostPorts } from './handler-context.ts';

export interface AppCoreOptions {
  dataDir: string;
  host: 'electron' | 'browser';
  version: string;
  platform: string;
  vault: Vault;
  settings: SettingsStore;
  ports: HostPorts;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  /** The demo workspace's service, built by the host (hosts/demo-sandbox.ts); stopped with the core. */
  demo: DemoSandboxPort & { stop?(): Promise<void> };
  /** Overrides for tests and benchmarks. */
  sync?: Partial<SyncOptions>;
  reachability?: SessionOptions['reachability'];
  /** How long a cached inbox waits for a page to list it before catching up anyway (default 2 s). */
  inboxGateMs?: number;
  /** The relay's messaging and contacts ports for joined workspaces (relay/relay-ports.ts). */
  relayPorts?: RelayPortsFactory;
  /** How long a joined workspace whose relay could not be reached waits to try again (default 5 s). */
  relayRetryMs?: number;
  /** Presence timings of a joined workspace's team layer (tests). */
  team?: JoinedSessionOptions['team'];
}

/**
 * The application behind the bridge, the same in both hosts: the workspace registry, the session of
 * the active workspace (store, sync, outbox), notifications, and the handlers of every bridge method.
 */
export class AppCore implements HandlerContext {
  readonly options: AppCoreOptions;
  readonly registry: WorkspaceRegistry;
  readonly dispatch: (method: string, input: unknown) => Promise<DispatchResult>;
  #session: ServiceSession | undefined;
  #sessionWorkspaceId: string | undefined;
  #notifier: Notifier | undefined;
  #detach: Array<() => void> = [];
  #switching: Promise<void> = Promise.resolve();
  #stopped = false;
  #realtime: RealtimeService | JoinedLiveEvents | undefined;
  /** Why the active joined workspace could not reach its relay (its session then waits to open). */
  #relayProblem: string | null = null;
  #relayRetry: ReturnType<typeof setTimeout> | undefined;
  /** The open workspace's attachment cache, made on first use. */
  #attachments: { workspaceId: string; cache: AttachmentCache } | undefined;
  /** The live-events restart under way (started without waiting when a session opens). */
  #realtimeRestarts: Promise<void> = Promise.resolve();
  /** Why live events could not even be set up (the realtime service has its own status otherwise). */
  #realtimeError: string | null = null;
  #liveAnnounced: ReturnType<typeof setImmediate> | undefined;
  readonly #demoVault = new InMemoryVault();
  /** Why the last workspace could not even open (its store); cleared when one opens. */
  #openProblem: StorageStatus['problem'] = null;
  /**
   * Opens the open session's start-up gate: a cached inbox is listed for the page before the sync
   * catches up and live events start, which would otherwise compete with that first answer.
   */
  #openInboxGate: (() => void) | undefined;
  /** While the open session closes, live events are not started for it again. */
  #closing = false;
  /** The poll intervals the open session runs at: other settings changes leave its sync alone. */
  #syncIntervals: SyncIntervals | undefined;

  private constructor(options: AppCoreOptions, registry: WorkspaceRegistry) {
    this.options = options;
    this.registry = registry;
    this.dispatch = createDispatcher(createHandlers(this));
  }

  static async start(options: AppCoreOptions): Promise<AppCore> {
    const registry = await openWorkspaceRegistry({
      dataDir: options.dataDir,
      vault: options.vault,
      settings: options.settings,
      probe: probeWorkspaceVersions,
      relayProbe: probeRelay,
      demo: options.demo,
      release: async (id) => {
        if (core.#sessionWorkspaceId === id) await core.#closeSession();
      },
    });
    const core: AppCore = new AppCore(options, registry);
    registry.onChange((event) => {
      if (event.type === 'activated' || event.type === 'token-updated') core.#switchTo(registry.active()?.id);
      // Another API version: the open session is rebuilt on it (its local data stays).
      if (event.type === 'api-version-changed' && event.workspace.id === core.#sessionWorkspaceId)
        core.#reopen(event.workspace.id);
      // The page starts over on the active workspace the list names and reads its inbox at once, so
      // it is told once the session is on that workspace: told while the one being left is still
      // open, it would read (and keep) that one's inbox. A session still to open on it says so
      // itself when it has (#openSession), or that it could not (#switchTo).
      void core.sessionSettled().then(() => {
        const active = registry.active()?.id;
        if (active === undefined || active === core.#sessionWorkspaceId)
          core.options.emit('workspaces.changed', core.workspaceList());
      });
    });
    options.settings.onChange(() => {
      const settings = core.publicSettings();
      core.#reconfigureSync(settings);
      core.options.emit('settings.changed', settings);
      core.#announceLive();
    });
    await core.#openSession(registry.active()?.id);
    return core;
  }

  /** The active workspace's session; throws when none is open (e.g. the keychain is locked). */
  get session(): ServiceSession {
    if (!this.#session)
      throw new UserFacingError('no_workspace', 'No workspace is open', { retryable: true });
    return this.#session;
  }

  get settings(): SettingsStore {
    return this.options.settings;
  }

  get vault(): Vault {
    return this.options.vault;
  }

  get ports(): HostPorts {
    return this.options.ports;
  }

  get version(): string {
    return this.options.version;
  }

  get host(): 'electron' | 'browser' {
    return this.options.host;
  }

  get platform(): string {
    return this.options.platform;
  }

  /** The open store's state, or why the last workspace could not open at all. */
  storageStatus(): StorageStatus {
    return this.#session?.store.storageStatus ?? { problem: this.#openProblem };
  }

  get notifier(): Notifier | undefined {
    return this.#notifier;
  }

  get isDemo(): boolean {
    return this.registry.active()?.kind === 'demo';
  }

  workspaceList(): WorkspaceList {
    const active = this.registry.active()?.id ?? null;
    return { workspaces: this.registry.list().map((w) => this.workspaceInfo(w.id)), activeId: active };
  }

  workspaceInfo(id: string): WorkspaceInfo {
    const w = this.registry.get(id);
    if (!w) throw new UserFacingError('not_found', 'No such workspace');
    return {
      id: w.id,
      name: w.name,
      kind: w.kind,
      baseUrl: w.baseUrl,
      relayUrl: w.kind === 'relay' ? w.relayUrl : null,
      tokenHeader: w.tokenHeader,
      apiVersion: w.apiVersion,
      active: this.registry.active()?.id === w.id,
    };
  }

  publicSettings(): PublicSettings {
    const settings = this.options.settings.get();
    const id = this.registry.active()?.id;
    const sync = id ? workspaceSyncOf(settings, id) : workspaceSyncOf(settings, '_');
    return {
      theme: settings.theme,
      typingMode: settings.typingMode,
      notifications: { ...settings.notifications },
      sync: {
        pollIntervalMs: sync.pollIntervalMs,
        backgroundPollIntervalMs: sync.backgroundPollIntervalMs,
        webhooksEnabled: sync.webhooksEnabled,
        tunnel: { provider: sync.tunnel.provider, customPublicUrl: sync.tunnel.customPublicUrl ?? null },
      },
      place: sync.place ?? null,
    };
  }

  /** Total unread chats of the active workspace (badge, tray, title). */
  unreadTotal(): number {
    if (!this.#session) return 0;
    let total = 0;
    for (const n of this.#session.store.chats.unreadByLine().values()) total += n;
    return total;
  }

  /** A file the agent staged in the open workspace; undefined when there is none (or no workspace). */
  stagedFile(stagedId: string): LocalAttachment | undefined {
    const staged = this.#session?.staging.get(stagedId);
    return staged ? { path: staged.path, mimeType: staged.mimeType, filename: staged.filename } : undefined;
  }

  /**
   * A received attachment as a local file: downloaded once from the service into the workspace's
   * cache, then served from disk through the host's app-owned URL.
   */
  async attachmentFile(attachmentId: string): Promise<LocalAttachment | undefined> {
    return this.#cachedAttachment(attachmentId, (cache, row) => cache.file(row));
  }

  /**
   * What the timeline draws for an attachment: its display-size thumbnail, made once by the cache;
   * the file itself when it has none (and a staged file as it is).
   */
  async attachmentThumbnail(attachmentId: string): Promise<LocalAttachment | undefined> {
    return this.#cachedAttachment(attachmentId, (cache, row) => cache.thumbnail(row));
  }

  async #cachedAttachment(
    attachmentId: string,
    pick: (cache: AttachmentCache, row: CachedAttachmentRow) => Promise<LocalAttachment>,
  ): Promise<LocalAttachment | undefined> {
    const session = this.#session;
    const workspaceId = this.#sessionWorkspaceId;
    if (!session || !workspaceId) return undefined;
    const row = session.store.messages.attachment(attachmentId);
    if (!row) return undefined;
    const stagedId = stagedIdOf(row.url);
    if (stagedId) return this.stagedFile(stagedId);
    if (this.#attachments?.workspaceId !== workspaceId) {
      const dir = join(this.registry.dataDirFor(workspaceId), 'attachments');
      this.#attachments = { workspaceId, cache: new AttachmentCache(dir, downloadThrough(session)) };
    }
    return pick(this.#attachments.cache, row);
  }

  /** What the live connection is doing (webhooks through a tunnel, or polling only). */
  liveStatus(): LiveStatus {
    const settings = this.publicSettings();
    const sync = this.#session?.sync.status ?? {
      phase: 'idle',
      chatsKnown: 0,
      chatsWithMessages: 0,
      lastSyncedAt: null,
      error: null,
    };
    const joined = this.registry.active()?.kind === 'relay';
    const push = this.#realtime?.details() ?? {
      state: 'polling' as const,
      reason:
        this.#relayProblem ??
        (settings.sync.webhooksEnabled || joined
          ? (this.#realtimeError ?? 'Starting live events…')
          : 'Live events are off: new messages arrive by polling'),
      provider: settings.sync.tunnel.provider,
      publicUrl: null,
      lastEventAt: null,
      subscription: null,
    };
    const reachability = this.#session?.reachability.state;
    return {
      ...push,
      provider: joined ? 'relay' : settings.sync.tunnel.provider,
      // Offline trumps everything the push path says: nothing reaches the service either way.
      ...(reachability?.reachable === false ? { state: 'offline', reason: reachability.reason } : {}),
      sync,
      pollIntervalMs: this.#session?.sync.inboxIntervalMs ?? settings.sync.backgroundPollIntervalMs,
    };
  }

  /** Sends the live status to the renderer, once per turn however many of its parts changed. */
  #announceLive(): void {
    if (this.#liveAnnounced) return;
    this.#liveAnnounced = setImmediate(() => {
      this.#liveAnnounced = undefined;
      if (!this.#stopped) this.options.emit('live.status', this.liveStatus());
    });
  }

  /** Chooses how live events reach this workspace; the realtime service (when attached) follows. */
  async configureLive(input: {
    enabled: boolean;
    provider: TunnelProvider;
    customPublicUrl?: string | undefined;
    ngrokAuthtoken?: string | undefined;
  }): Promise<LiveStatus> {
    const id = this.registry.active()?.id;
    if (!id) throw new UserFacingError('no_workspace', 'No workspace is open');
    if (input.provider === 'custom' && !input.customPublicUrl) {
      throw new UserFacingError('invalid_input', 'A custom tunnel needs its public URL', {
        field: 'customPublicUrl',
      });
    }
    if (input.ngrokAuthtoken) await this.options.vault.set(vaultKeys.ngrokAuthtoken, input.ngrokAuthtoken);
    this.options.settings.update({
      workspaces: {
        [id]: {
          webhooksEnabled: input.enabled,
          tunnel: {
            provider: input.provider,
            ...(input.customPublicUrl ? { customPublicUrl: input.customPublicUrl } : {}),
          },
        },
      },
    });
    await this.#restartRealtime();
    return this.liveStatus();
  }

  /** Resolves once no switch is under way (one queued meanwhile is waited for too). */
  async sessionSettled(): Promise<void> {
    for (let current = this.#switching; ; current = this.#switching) {
      await current;
      if (current === this.#switching) return;
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#relayRetry);
    await this.#switching;
    await this.#closeSession();
    this.registry.close();
    await this.options.demo?.stop?.();
  }

  #reopen(id: string): void {
    this.#switching = this.#switching.then(() => this.#closeSession());
    this.#switchTo(id);
  }

  #switchTo(id: string | undefined): void {
    this.#switching = this.#switching
      .then(() => this.#openSession(id))
      .catch((error: unknown) => {
        // A store that cannot even open (read-only or foreign folder, full disk) shows as the banner.
        const problem = storageProblemOf(error);
        if (problem) {
          this.#openProblem = problem;
          this.options.emit('storage.status', { problem });
        }
        log.error('could not open workspace', {
          error: error instanceof Error ? error.message : String(error),
        });
        this.options.emit('workspaces.changed', this.workspaceList());
      });
  }

  async #openSession(id: string | undefined): Promise<void> {
    if (this.#stopped) return;
    if (id === this.#sessionWorkspaceId && this.#session) return;
    await this.#closeSession();
    clearTimeout(this.#relayRetry);
    this.#relayProblem = null;
    if (!id) return;
    const workspace = this.registry.get(id);
    if (!workspace) return;
    const dataDir = this.registry.dataDirFor(id);
    // The demo's service is in-memory and new each launch: yesterday's cache would not match it.
    if (workspace.kind === 'demo') rmSync(dataDir, { recursive: true, force: true });
    const sync = workspaceSyncOf(this.options.settings.get(), id);
    const options = {
      dataDir,
      apiVersion: workspace.apiVersion,
      sync: {
        openChatIntervalMs: sync.pollIntervalMs,
        backgroundIntervalMs: sync.backgroundPollIntervalMs,
        ...this.options.sync,
      },
      ...(this.options.reachability ? { reachability: this.options.reachability } : {}),
    };
    const session =
      workspace.kind === 'relay'
        ? await this.#openJoined(id, options)
        : new WorkspaceSession({ ...options, connection: await this.registry.connectionFor(id) });
    if (!session) return;
    this.#session = session;
    this.#sessionWorkspaceId = id;
    this.#syncIntervals = intervalsOf(sync);
    this.#openProblem = null;
    this.#notifier = new Notifier(session.store);
    this.#detach = STORE_EVENT_NAMES.map((name) =>
      session.store.events.on(name, (changes) => {
        this.options.emit(name, changes);
        if (name === 'messages.changed') this.#notifyArrivals(changes as StoreEvents['messages.changed']);
      }),
    );
    if (session instanceof JoinedSession)
      this.#detach.push(
        session.team.onChanged((change) => this.options.emit('team.changed', change)),
        session.team.onMention((notice) => this.options.emit('team.mention', notice)),
      );
    this.#detach.push(
      session.sync.onStatus(() => this.#announceLive()),
      session.reachability.onChange(() => this.#announceLive()),
      session.scheduler.onSnoozeWoke((snooze) => {
        const settings = this.options.settings.get().notifications;
        const notice = settings.enabled && this.#notifier?.snoozeReturned(snooze, settings.showPreview);
        if (notice) this.options.emit('notification.incoming', notice);
      }),
    );
    this.options.emit('workspaces.changed', this.workspaceList());
    const gate = this.#inboxGate(session);
    // The first sync runs in the background: the inbox fills as it goes.
    void session
      .start({ resumeAfter: gate })
      .catch((error: unknown) => log.warn('first sync failed', { error: String(error) }));
    // The demo's service runs on this machine, so its webhooks reach us directly: live by default.
    if (workspace.kind === 'demo' && !(id in this.options.settings.get().workspaces)) {
      this.options.settings.update({
        workspaces: { [id]: { webhooksEnabled: true, tunnel: { provider: 'direct' } } },
      });
    }
    // Live events wait on the network (tunnel, subscription): the cached inbox is served meanwhile.
    this.#realtimeRestarts = this.#realtimeRestarts.then(() => gate);
    this.#restartRealtime().catch(() => undefined); // logged where the restarts are chained
  }

  /**
   * A joined workspace's session, once its relay answers. Until then its live status says why not,
   * and an unreachable relay is tried again (credentials refused are not: they need a new code).
   */
  async #openJoined(
    id: string,
    options: Omit<SessionOptions, 'connection'>,
  ): Promise<JoinedSession | undefined> {
    const ports = this.options.relayPorts ?? relayPorts;
    try {
      const team = this.options.team ? { team: this.options.team } : {};
      return await JoinedSession.open(await this.registry.relayCredentialsFor(id), {
        ...options,
        ports,
        ...team,
      });
    } catch (error) {
      if (!(error instanceof RelayConnectionError)) throw error;
      this.#relayProblem = error.message;
      log.warn('could not reach the relay', { reason: error.message });
      if (!error.refused)
        this.#relayRetry = setTimeout(() => this.#switchTo(id), this.options.relayRetryMs ?? 5_000);
      this.options.emit('workspaces.changed', this.workspaceList());
      this.#announceLive();
      return undefined;
    }
  }

  /**
   * Resolves once the page has listed the inbox (and the rest of its first calls, queued behind
   * that one, are answered), or after INBOX_GATE_MS without a page; at once without a cached inbox
   * (a first sync is what fills it).
   */
  #inboxGate(session: ServiceSession): Promise<void> {
    this.#openInboxGate = undefined;
    if (!session.sync.hasCachedInbox) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, this.options.inboxGateMs ?? INBOX_GATE_MS);
      this.#openInboxGate = () => {
        this.#openInboxGate = undefined;
        clearTimeout(timer);
        setTimeout(resolve, 0);
      };
    });
  }

  /** The inbox was listed (`chats.list`): the open session may catch up now. */
  noteInboxListed(): void {
    this.#openInboxGate?.();
  }

  /**
   * Follows the poll intervals the settings now say. Only when they changed: reconfiguring polls the
   * open chat at once, and most writes (the agent's place, saved as they scroll) are not about sync.
   */
  #reconfigureSync(settings: PublicSettings): void {
    const next = intervalsOf(settings.sync);
    const current = this.#syncIntervals;
    if (!this.#session || (current && sameIntervals(current, next))) return;
    this.#syncIntervals = next;
    this.#session.sync.configure({
      openChatIntervalMs: next.pollIntervalMs,
      backgroundIntervalMs: next.backgroundPollIntervalMs,
    });
  }

  /** Customers' new messages become notices (the notifier decides which), from the messages the event carries. */
  #notifyArrivals({ chatId, keys, messages }: StoreEvents['messages.changed']): void {
    const settings = this.options.settings.get().notifications;
    if (!settings.enabled) return;
    for (const notice of this.#notifier?.consider(chatId, keys, settings.showPreview, messages) ?? [])
      this.options.emit('notification.incoming', notice);
  }

  /** (Re)starts live events for the open workspace as its settings say; one restart at a time, in order. */
  #restartRealtime(): Promise<void> {
    const restart = this.#realtimeRestarts.then(() => this.#restartRealtimeNow());
    this.#realtimeRestarts = restart.catch((error: unknown) =>
      log.warn('restarting live events failed', { error: String(error) }),
    );
    return restart;
  }

  /** Off means polling only. */
  async #restartRealtimeNow(): Promise<void> {
    const previous = this.#realtime;
    this.#realtime = undefined;
    this.#realtimeError = null;
    await previous
      ?.stop()
      .catch((error: unknown) => log.warn('stopping live events failed', { error: String(error) }));
    const session = this.#session;
    const id = this.#sessionWorkspaceId;
    if (!session || !id || this.#closing) return;
    this.#announceLive();
    // A joined desktop's live events are the relay's event log: no tunnel, nothing to choose.
    if (session instanceof JoinedSession) {
      const live = session.liveEvents(() => this.#announceLive());
      this.#realtime = live;
      await live.start();
      return;
    }
    if (!(session instanceof WorkspaceSession)) return;
    const sync = workspaceSyncOf(this.options.settings.get(), id);
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
        { vault: this.options.vault },
      );
      // The demo's sandbox lives and dies with this process, so its webhook secret needs no keychain.
      const vault = this.registry.get(id)?.kind === 'demo' ? this.#demoVault : this.options.vault;
      const realtime = new RealtimeService({
        workspaceId: id,
        session,
        vault,
        tunnel,
        onStatus: () => this.#announceLive(),
      });
      this.#realtime = realtime;
      // start() never throws for push-path trouble: it becomes the status (polling, with the reason).
      await realtime.start();
    } catch (error) {
      this.#realtimeError = error instanceof Error ? error.message : String(error);
      this.#announceLive();
    }
  }

  /**
   * Before a workspace goes: its webhook subscriptions of this installation are removed from the
   * service (while its token still exists) and live events stop.
   */
  async forgetLive(workspaceId: string): Promise<void> {
    const session = this.#session;
    if (this.#sessionWorkspaceId === workspaceId && session) {
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
          vault: this.options.vault,
        }).catch(() => undefined);
    }
  }

  async #closeSession(): Promise<void> {
    const session = this.#session;
    if (!session) return;
    this.#closing = true;
    try {
      await this.#closeOpenSession(session);
    } finally {
      this.#closing = false;
    }
  }

  async #closeOpenSession(session: ServiceSession): Promise<void> {
    // A session closed before its gate opened does not wait out the gate's time.
    this.#openInboxGate?.();
    // Quit or switch: the subscription is deactivated, the tunnel and listener closed (once a start
    // under way has settled, so nothing is left running behind it; a stuck one is not waited for).
    if (!(await within(this.#realtimeRestarts, 5_000)))
      log.warn('live events were still starting; closing anyway');
    const realtime = this.#realtime;
    this.#realtime = undefined;
    if (realtime) {
      // Deactivating the subscription is a courtesy to the service: it may not hold up a quit.
      const stopping = realtime
        .stop()
        .catch((error: unknown) => log.warn('stopping live events failed', { error: String(error) }));
      if (!(await within(stopping, 5_000))) log.warn('live events did not stop in time; closing anyway');
    }
    this.#session = undefined;
    this.#sessionWorkspaceId = undefined;
    this.#notifier = undefined;
    for (const detach of this.#detach) detach();
    this.#detach = [];
    await session.close();
  }
}

interface SyncIntervals {
  pollIntervalMs: number;
  backgroundPollIntervalMs: number;
}

function intervalsOf(sync: SyncIntervals): SyncIntervals {
  return { pollIntervalMs: sync.pollIntervalMs, backgroundPollIntervalMs: sync.backgroundPollIntervalMs };
}

function sameIntervals(a: SyncIntervals, b: SyncIntervals): boolean {
  return a.pollIntervalMs === b.pollIntervalMs && a.backgroundPollIntervalMs === b.backgroundPollIntervalMs;
}

/** Downloads through the session's client: retried, budgeted and heard by reachability. */
function downloadThrough(session: ServiceSession) {
  return (row: CachedAttachmentRow, to: string) =>
    session.messaging.downloadAttachment(row, to, {}).catch((error: unknown) => {
      if (isPartnerApiError(error) && error.status > 0)
        throw new UserFacingError(
          'not_found',
          `The attachment could not be downloaded (HTTP ${error.status})`,
          {
            retryable: true,
          },
        );
      throw error;
    });
}
