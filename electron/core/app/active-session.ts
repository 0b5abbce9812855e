// The active workspace's session, one at a time: opened on the workspace the registry names, switched
// one switch after another, reopened on another API version, closed; a joined workspace whose relay
// could not be reached tried again; and the live events that follow whichever session is open. It
// holds the open session's state so that AppCore (app-core.ts) only wires and answers the handlers.
import type { StorageStatus } from '../../../shared/contract/errors.ts';
import type { PublicSettings, WorkspaceList } from '../../../shared/contract/views.ts';
import { createLogger } from '../log/logger.ts';
import { type ServiceSession, type SessionOptions, WorkspaceSession } from '../session.ts';
import { workspaceSyncOf } from '../settings/index.ts';
import { storageProblemOf } from '../store/storage-errors.ts';
import type { WorkspaceRegistry } from '../workspaces/index.ts';
import type { AppCoreOptions } from './core-options.ts';
import { demoLiveByDefault, forgetDemoCache } from './demo-workspace.ts';
import { openJoinedWorkspace } from './joined-workspace.ts';
import { LiveEvents } from './live-events.ts';
import { Notifier } from './notifier.ts';
import { forwardSessionEvents } from './session-events.ts';
import {
  followIntervals,
  inboxGate,
  intervalsOf,
  sessionOptionsOf,
  type SyncIntervals,
} from './session-start.ts';

const log = createLogger('app');
/** How long a cached inbox waits for a page to list it before the session catches up anyway. */
const INBOX_GATE_MS = 2_000;

/** What the active session needs of the app core that owns it. */
export interface ActiveSessionOptions {
  core: AppCoreOptions;
  registry: WorkspaceRegistry;
  /** Tells the page the live status (once per turn). */
  announceLive: () => void;
  /** What the page is told of the workspaces when a session opens or could not. */
  workspaceList: () => WorkspaceList;
}

export class ActiveSession {
  readonly live: LiveEvents;
  readonly #options: AppCoreOptions;
  readonly #registry: WorkspaceRegistry;
  readonly #announceLive: () => void;
  readonly #workspaceList: () => WorkspaceList;
  #session: ServiceSession | undefined;
  #workspaceId: string | undefined;
  #notifier: Notifier | undefined;
  #detach: Array<() => void> = [];
  #switching: Promise<void> = Promise.resolve();
  #stopped = false;
  /** Why the active joined workspace could not reach its relay (its session then waits to open). */
  #relayProblem: string | null = null;
  #relayRetry: ReturnType<typeof setTimeout> | undefined;
  /** Why the last workspace could not even open (its store); cleared when one opens. */
  #openProblem: StorageStatus['problem'] = null;
  /** Opens the open session's start-up gate (session-start.ts: the cached inbox is listed first). */
  #openInboxGate: (() => void) | undefined;
  /** While the open session closes, live events are not started for it again. */
  #closing = false;
  /** The poll intervals the open session runs at: other settings changes leave its sync alone. */
  #syncIntervals: SyncIntervals | undefined;

  constructor(options: ActiveSessionOptions) {
    this.#options = options.core;
    this.#registry = options.registry;
    this.#announceLive = options.announceLive;
    this.#workspaceList = options.workspaceList;
    const { core, registry } = options;
    this.live = new LiveEvents({
      vault: core.vault,
      target: () => {
        const session = this.#session;
        const workspaceId = this.#workspaceId;
        if (!session || !workspaceId || this.#closing) return undefined;
        const kind = registry.get(workspaceId)?.kind;
        return { session, workspaceId, kind, sync: workspaceSyncOf(core.settings.get(), workspaceId) };
      },
      announce: () => this.#announceLive(),
    });
  }

  /** The open session, if any. */
  get session(): ServiceSession | undefined {
    return this.#session;
  }

  /** The workspace the open session is on, if any. */
  get workspaceId(): string | undefined {
    return this.#workspaceId;
  }

  get notifier(): Notifier | undefined {
    return this.#notifier;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  get relayProblem(): string | null {
    return this.#relayProblem;
  }

  get openProblem(): StorageStatus['problem'] {
    return this.#openProblem;
  }

  /** Resolves once no switch is under way (one queued meanwhile is waited for too). */
  async settled(): Promise<void> {
    for (let current = this.#switching; ; current = this.#switching) {
      await current;
      if (current === this.#switching) return;
    }
  }

  /** Stops for good: no session opens after this, and the open one closes. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#relayRetry);
    await this.#switching;
    await this.close();
  }

  /** Closes the open session and opens it again (after the switches already queued). */
  reopen(id: string): void {
    this.#switching = this.#switching.then(() => this.close());
    this.switchTo(id);
  }

  /** Opens the session of this workspace (none when undefined), after the switches already queued. */
  switchTo(id: string | undefined): void {
    this.#switching = this.#switching
      .then(() => this.open(id))
      .catch((error: unknown) => {
        // A store that cannot even open (read-only or foreign folder, full disk) shows as the banner.
        const problem = storageProblemOf(error);
        if (problem) {
          this.#openProblem = problem;
          this.#options.emit('storage.status', { problem });
        }
        log.error('could not open workspace', {
          error: error instanceof Error ? error.message : String(error),
        });
        this.#options.emit('workspaces.changed', this.#workspaceList());
      });
  }

  /** Opens the session of this workspace now, closing the one open (not queued: see switchTo). */
  async open(id: string | undefined): Promise<void> {
    if (this.#stopped) return;
    if (id === this.#workspaceId && this.#session) return;
    await this.close();
    clearTimeout(this.#relayRetry);
    this.#relayProblem = null;
    if (!id) return;
    const workspace = this.#registry.get(id);
    if (!workspace) return;
    const dataDir = this.#registry.dataDirFor(id);
    forgetDemoCache(workspace.kind, dataDir);
    const sync = workspaceSyncOf(this.#options.settings.get(), id);
    const options = sessionOptionsOf(dataDir, workspace.apiVersion, sync, this.#options);
    const session =
      workspace.kind === 'relay'
        ? await this.#openJoined(id, options)
        : new WorkspaceSession({ ...options, connection: await this.#registry.connectionFor(id) });
    if (!session) return;
    this.#session = session;
    this.#workspaceId = id;
    this.#syncIntervals = intervalsOf(sync);
    this.#openProblem = null;
    const notifier = new Notifier(session.store);
    this.#notifier = notifier;
    this.#detach = forwardSessionEvents(session, {
      notifier,
      settings: this.#options.settings,
      emit: this.#options.emit,
      announceLive: () => this.#announceLive(),
    });
    this.#options.emit('workspaces.changed', this.#workspaceList());
    const gate = inboxGate(session, this.#options.inboxGateMs ?? INBOX_GATE_MS);
    this.#openInboxGate = gate.open;
    // The first sync runs in the background: the inbox fills as it goes.
    void session
      .start({ resumeAfter: gate.passed })
      .catch((error: unknown) => log.warn('first sync failed', { error: String(error) }));
    demoLiveByDefault(workspace.kind, id, this.#options.settings);
    // Live events wait on the network (tunnel, subscription): the cached inbox is served meanwhile.
    this.live.waitFor(gate.passed);
    this.live.restart().catch(() => undefined); // logged where the restarts are chained
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
      this.#registry,
      id,
      { ...options, ...(this.#options.relayRetryMs ? { relayRetryMs: this.#options.relayRetryMs } : {}) },
      this.#options.relayPorts,
      this.#options.team,
    );
    if ('session' in opened) return opened.session;
    this.#relayProblem = opened.problem;
    if (opened.tryAgain)
      this.#relayRetry = setTimeout(() => this.switchTo(id), this.#options.relayRetryMs ?? 5_000);
    this.#options.emit('workspaces.changed', this.#workspaceList());
    this.#announceLive();
    return undefined;
  }

  /** The inbox was listed (`chats.list`): the open session may catch up now. */
  noteInboxListed(): void {
    this.#openInboxGate?.();
  }

  /** Follows the poll intervals the settings now say (only when they changed: see followIntervals). */
  reconfigureSync(settings: PublicSettings): void {
    if (!this.#session) return;
    this.#syncIntervals = followIntervals(this.#session, this.#syncIntervals, intervalsOf(settings.sync));
  }

  /** Before a workspace goes: its live events stop and its subscriptions are removed (if it is open). */
  async forgetLive(workspaceId: string): Promise<void> {
    const session = this.#session;
    if (this.#workspaceId === workspaceId && session) await this.live.forget(session, workspaceId);
  }

  /** Closes the open session, if any: live events stop first, then its store and sync. */
  async close(): Promise<void> {
    const session = this.#session;
    if (!session) return;
    this.#closing = true;
    try {
      // A session closed before its gate opened does not wait out the gate's time.
      this.#openInboxGate?.();
      await this.live.stop();
      this.#session = undefined;
      this.#workspaceId = undefined;
      this.#notifier = undefined;
      for (const detach of this.#detach) detach();
      this.#detach = [];
      await session.close();
    } finally {
      this.#closing = false;
    }
  }
}
