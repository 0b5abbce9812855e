import type { StorageStatus } from '../../../shared/contract/errors.ts';
import type { ThumbnailScale, ThumbnailSize } from '../../../shared/contract/media.ts';
import type {
  LiveStatus,
  PublicSettings,
  WorkspaceInfo,
  WorkspaceList,
} from '../../../shared/contract/views.ts';
import type { LocalAttachment } from '../attachments/attachment-cache.ts';
import { createLogger } from '../log/logger.ts';
import { type ServiceSession, type SessionOptions, WorkspaceSession } from '../session.ts';
import { probeRelay } from '../relay/join.ts';
import type { SettingsStore } from '../settings/index.ts';
import { workspaceSyncOf } from '../settings/index.ts';
import { storageProblemOf } from '../store/storage-errors.ts';
import type { Vault } from '../vault/index.ts';
import {
  openWorkspaceRegistry,
  probeWorkspaceVersions,
  type WorkspaceRegistry,
} from '../workspaces/index.ts';
import { AttachmentFiles } from './attachment-files.ts';
import { demoLiveByDefault, forgetDemoCache } from './demo-workspace.ts';
import type { AppCoreOptions } from './core-options.ts';
import { createDispatcher, type DispatchResult } from './dispatch.ts';
import { UserFacingError } from './errors.ts';
import type { HandlerContext, HostPorts } from './handler-context.ts';
import { createHandlers } from './handlers.ts';
import { openJoinedWorkspace } from './joined-workspace.ts';
import { LiveEvents, saveLiveChoice, type LiveChoice } from './live-events.ts';
import { liveStatusOf, onePerTurn } from './live-status.ts';
import { Notifier } from './notifier.ts';
import { forwardSessionEvents } from './session-events.ts';
import {
  followIntervals,
  inboxGate,
  intervalsOf,
  sessionOptionsOf,
  type SyncIntervals,
} from './session-start.ts';
import { publicSettingsOf, workspaceInfoOf, workspaceListOf } from './workspace-views.ts';

const log = createLogger('app');
/** How long a cached inbox waits for a page to list it before the session catches up anyway. */
const INBOX_GATE_MS = 2_000;

export type { HostPorts } from './handler-context.ts';
export type { AppCoreOptions } from './core-options.ts';

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
  readonly #live: LiveEvents;
  /** Why the active joined workspace could not reach its relay (its session then waits to open). */
  #relayProblem: string | null = null;
  #relayRetry: ReturnType<typeof setTimeout> | undefined;
  readonly #attachments: AttachmentFiles;
  /** Sends the live status to the renderer, once per turn however many of its parts changed. */
  readonly #announceLive = onePerTurn(() => {
    if (!this.#stopped) this.options.emit('live.status', this.liveStatus());
  });
  /** Why the last workspace could not even open (its store); cleared when one opens. */
  #openProblem: StorageStatus['problem'] = null;
  /** Opens the open session's start-up gate (session-start.ts: the cached inbox is listed first). */
  #openInboxGate: (() => void) | undefined;
  /** While the open session closes, live events are not started for it again. */
  #closing = false;
  /** The poll intervals the open session runs at: other settings changes leave its sync alone. */
  #syncIntervals: SyncIntervals | undefined;

  private constructor(options: AppCoreOptions, registry: WorkspaceRegistry) {
    this.options = options;
    this.registry = registry;
    this.dispatch = createDispatcher(createHandlers(this));
    this.#attachments = new AttachmentFiles(
      (id) => registry.dataDirFor(id),
      () => {
        const [session, workspaceId] = [this.#session, this.#sessionWorkspaceId];
        return session && workspaceId ? { session, workspaceId } : undefined;
      },
    );
    this.#live = new LiveEvents({
      vault: options.vault,
      target: () => {
        const session = this.#session;
        const workspaceId = this.#sessionWorkspaceId;
        if (!session || !workspaceId || this.#closing) return undefined;
        const kind = registry.get(workspaceId)?.kind;
        return { session, workspaceId, kind, sync: workspaceSyncOf(options.settings.get(), workspaceId) };
      },
      announce: () => this.#announceLive(),
    });
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
    return workspaceListOf(this.registry);
  }

  workspaceInfo(id: string): WorkspaceInfo {
    return workspaceInfoOf(this.registry, id);
  }

  publicSettings(): PublicSettings {
    return publicSettingsOf(this.options.settings.get(), this.registry.active()?.id);
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
    return this.#attachments.staged(stagedId);
  }

  /**
   * A received attachment as a local file: downloaded once from the service into the workspace's
   * cache, then served from disk through the host's app-owned URL.
   */
  async attachmentFile(attachmentId: string): Promise<LocalAttachment | undefined> {
    return this.#attachments.find('file', attachmentId);
  }

  /**
   * What the timeline (or the viewer) draws for an attachment: a copy the size of its box, made once
   * by the cache; the file itself when it has none (and a staged file as it is).
   */
  async attachmentThumbnail(
    attachmentId: string,
    scale: ThumbnailScale = 2,
    size: ThumbnailSize = 'bubble',
  ): Promise<LocalAttachment | undefined> {
    return this.#attachments.find('thumbnail', attachmentId, scale, size);
  }

  /** What the live connection is doing (webhooks through a tunnel, or polling only). */
  liveStatus(): LiveStatus {
    return liveStatusOf({
      settings: this.publicSettings(),
      session: this.#session,
      joined: this.registry.active()?.kind === 'relay',
      push: this.#live.details(),
      relayProblem: this.#relayProblem,
      realtimeError: this.#live.error,
    });
  }

  /** Chooses how live events reach this workspace; the realtime service (when attached) follows. */
  async configureLive(input: LiveChoice): Promise<LiveStatus> {
    const id = this.registry.active()?.id;
    if (!id) throw new UserFacingError('no_workspace', 'No workspace is open');
    await saveLiveChoice(id, input, this.options.settings, this.options.vault);
    await this.#live.restart();
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
    forgetDemoCache(workspace.kind, dataDir);
    const sync = workspaceSyncOf(this.options.settings.get(), id);
    const options = sessionOptionsOf(dataDir, workspace.apiVersion, sync, this.options);
    const session =
      workspace.kind === 'relay'
        ? await this.#openJoined(id, options)
        : new WorkspaceSession({ ...options, connection: await this.registry.connectionFor(id) });
    if (!session) return;
    this.#session = session;
    this.#sessionWorkspaceId = id;
    this.#syncIntervals = intervalsOf(sync);
    this.#openProblem = null;
    const notifier = new Notifier(session.store);
    this.#notifier = notifier;
    this.#detach = forwardSessionEvents(session, {
      notifier,
      settings: this.options.settings,
      emit: this.options.emit,
      announceLive: () => this.#announceLive(),
    });
    this.options.emit('workspaces.changed', this.workspaceList());
    const gate = inboxGate(session, this.options.inboxGateMs ?? INBOX_GATE_MS);
    this.#openInboxGate = gate.open;
    // The first sync runs in the background: the inbox fills as it goes.
    void session
      .start({ resumeAfter: gate.passed })
      .catch((error: unknown) => log.warn('first sync failed', { error: String(error) }));
    demoLiveByDefault(workspace.kind, id, this.options.settings);
    // Live events wait on the network (tunnel, subscription): the cached inbox is served meanwhile.
    this.#live.waitFor(gate.passed);
    this.#live.restart().catch(() => undefined); // logged where the restarts are chained
  }

  /**
   * A joined workspace's session, at once (a relay that is away is tried again by its link). Only
   * credentials refused keep it closed, and its live status says why (they need a new code).
   */
  async #openJoined(
    id: string,
    options: Omit<SessionOptions, 'connection'>,
  ): Promise<ServiceSession | undefined> {
    const opened = await openJoinedWorkspace(
      this.registry,
      id,
      { ...options, ...(this.options.relayRetryMs ? { relayRetryMs: this.options.relayRetryMs } : {}) },
      this.options.relayPorts,
      this.options.team,
    );
    if ('session' in opened) return opened.session;
    this.#relayProblem = opened.problem;
    if (opened.tryAgain)
      this.#relayRetry = setTimeout(() => this.#switchTo(id), this.options.relayRetryMs ?? 5_000);
    this.options.emit('workspaces.changed', this.workspaceList());
    this.#announceLive();
    return undefined;
  }

  /** The inbox was listed (`chats.list`): the open session may catch up now. */
  noteInboxListed(): void {
    this.#openInboxGate?.();
  }

  /** Follows the poll intervals the settings now say (only when they changed: see followIntervals). */
  #reconfigureSync(settings: PublicSettings): void {
    if (!this.#session) return;
    this.#syncIntervals = followIntervals(this.#session, this.#syncIntervals, intervalsOf(settings.sync));
  }

  /**
   * Before a workspace goes: its webhook subscriptions of this installation are removed from the
   * service (while its token still exists) and live events stop.
   */
  async forgetLive(workspaceId: string): Promise<void> {
    const session = this.#session;
    if (this.#sessionWorkspaceId === workspaceId && session) await this.#live.forget(session, workspaceId);
  }

  async #closeSession(): Promise<void> {
    const session = this.#session;
    if (!session) return;
    this.#closing = true;
    try {
      // A session closed before its gate opened does not wait out the gate's time.
      this.#openInboxGate?.();
      await this.#live.stop();
      this.#session = undefined;
      this.#sessionWorkspaceId = undefined;
      this.#notifier = undefined;
      for (const detach of this.#detach) detach();
      this.#detach = [];
      await session.close();
    } finally {
      this.#closing = false;
    }
  }
}
