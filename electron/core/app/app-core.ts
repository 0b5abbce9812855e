// The application behind the bridge, the same in both hosts: it wires the workspace registry, the
// active workspace's session (active-session.ts) and the handlers of every bridge method, and answers
// what the handlers ask of it (HandlerContext). The session's opening, switching and closing live in
// ActiveSession so that this file only wires.
import type { StorageStatus } from '../../../shared/contract/errors.ts';
import type { ThumbnailScale, ThumbnailSize } from '../../../shared/contract/media.ts';
import type {
  LiveStatus,
  PublicSettings,
  WorkspaceInfo,
  WorkspaceList,
} from '../../../shared/contract/views.ts';
import type { LocalAttachment } from '../attachments/attachment-cache.ts';
import type { ServiceSession } from '../session.ts';
import { probeRelay } from '../relay/join.ts';
import type { SettingsStore } from '../settings/index.ts';
import type { Vault } from '../vault/index.ts';
import {
  openWorkspaceRegistry,
  probeWorkspaceVersions,
  type WorkspaceRegistry,
} from '../workspaces/index.ts';
import { ActiveSession } from './active-session.ts';
import { AttachmentFiles } from './attachment-files.ts';
import type { AppCoreOptions } from './core-options.ts';
import { createDispatcher, type DispatchResult } from './dispatch.ts';
import { UserFacingError } from './errors.ts';
import type { HandlerContext, HostPorts } from './handler-context.ts';
import { createHandlers } from './handlers.ts';
import { saveLiveChoice, type LiveChoice } from './live-events.ts';
import { liveStatusOf, onePerTurn } from './live-status.ts';
import type { Notifier } from './notifier.ts';
import { publicSettingsOf, workspaceInfoOf, workspaceListOf } from './workspace-views.ts';

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
  readonly #active: ActiveSession;
  readonly #attachments: AttachmentFiles;
  /** Sends the live status to the renderer, once per turn however many of its parts changed. */
  readonly #announceLive = onePerTurn(() => {
    if (!this.#active.stopped) this.options.emit('live.status', this.liveStatus());
  });

  private constructor(options: AppCoreOptions, registry: WorkspaceRegistry) {
    this.options = options;
    this.registry = registry;
    this.dispatch = createDispatcher(createHandlers(this));
    this.#active = new ActiveSession({
      core: options,
      registry,
      announceLive: () => this.#announceLive(),
      workspaceList: () => this.workspaceList(),
    });
    this.#attachments = new AttachmentFiles(
      (id) => registry.dataDirFor(id),
      () => {
        const [session, workspaceId] = [this.#active.session, this.#active.workspaceId];
        return session && workspaceId ? { session, workspaceId } : undefined;
      },
    );
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
        if (core.#active.workspaceId === id) await core.#active.close();
      },
    });
    const core: AppCore = new AppCore(options, registry);
    const active = core.#active;
    registry.onChange((event) => {
      if (event.type === 'activated' || event.type === 'token-updated')
        active.switchTo(registry.active()?.id);
      // Another API version: the open session is rebuilt on it (its local data stays).
      // Joined again with a new code: the same, with the new credentials (also when the refused
      // ones had kept it from opening at all).
      if (
        (event.type === 'api-version-changed' && event.workspace.id === active.workspaceId) ||
        (event.type === 'rejoined' && event.workspace.id === registry.active()?.id)
      )
        active.reopen(event.workspace.id);
      // The page starts over on the active workspace the list names and reads its inbox at once, so
      // it is told once the session is on that workspace: told while the one being left is still
      // open, it would read (and keep) that one's inbox. A session still to open on it says so
      // itself when it has (ActiveSession.open), or that it could not (ActiveSession.switchTo).
      void core.sessionSettled().then(() => {
        const id = registry.active()?.id;
        if (id === undefined || id === active.workspaceId)
          core.options.emit('workspaces.changed', core.workspaceList());
      });
    });
    options.settings.onChange(() => {
      const settings = core.publicSettings();
      active.reconfigureSync(settings);
      core.options.emit('settings.changed', settings);
      core.#announceLive();
    });
    await active.open(registry.active()?.id);
    return core;
  }

  /** The active workspace's session; throws when none is open (e.g. the keychain is locked). */
  get session(): ServiceSession {
    const session = this.#active.session;
    if (!session) throw new UserFacingError('no_workspace', 'No workspace is open', { retryable: true });
    return session;
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
    return this.#active.session?.store.storageStatus ?? { problem: this.#active.openProblem };
  }

  get notifier(): Notifier | undefined {
    return this.#active.notifier;
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
    const session = this.#active.session;
    if (!session) return 0;
    let total = 0;
    for (const n of session.store.chats.unreadByLine().values()) total += n;
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
      session: this.#active.session,
      joined: this.registry.active()?.kind === 'relay',
      push: this.#active.live.details(),
      relayProblem: this.#active.relayProblem,
      realtimeError: this.#active.live.error,
    });
  }

  /** Chooses how live events reach this workspace; the realtime service (when attached) follows. */
  async configureLive(input: LiveChoice): Promise<LiveStatus> {
    const id = this.registry.active()?.id;
    if (!id) throw new UserFacingError('no_workspace', 'No workspace is open');
    await saveLiveChoice(id, input, this.options.settings, this.options.vault);
    await this.#active.live.restart();
    return this.liveStatus();
  }

  /** Resolves once no switch is under way (one queued meanwhile is waited for too). */
  async sessionSettled(): Promise<void> {
    await this.#active.settled();
  }

  async stop(): Promise<void> {
    await this.#active.stop();
    this.registry.close();
    await this.options.demo?.stop?.();
  }

  /** The inbox was listed (`chats.list`): the open session may catch up now. */
  noteInboxListed(): void {
    this.#active.noteInboxListed();
  }

  /**
   * Before a workspace goes: its webhook subscriptions of this installation are removed from the
   * service (while its token still exists) and live events stop.
   */
  async forgetLive(workspaceId: string): Promise<void> {
    await this.#active.forgetLive(workspaceId);
  }
}
