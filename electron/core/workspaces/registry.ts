/**
 * The workspace registry: which services the user is connected to (workspaces.json in the data
 * folder), their tokens (in the vault), which one is active (settings.activeWorkspaceId), and the
 * built-in demo workspace that exists whenever no remote one does, so a newcomer always lands
 * somewhere that works.
 *
 * Ordering rules, so a failure never leaves a half-made workspace or a stray secret:
 *  - add / updateToken: probe the service first; only then write the token, then workspaces.json
 *    (and take the token back out if that write fails).
 *  - join (a team's relay): the same, with the relay asked instead of the service and the agent's
 *    seed instead of a token.
 *  - remove: delete the secrets first (if the keychain refuses, nothing changes and the user can retry),
 *    then workspaces.json, then the data folder.
 * Each change is announced (workspace-announcer.ts); a new workspace's record is new-workspace.ts.
 */
import { randomBytes } from 'node:crypto';
import type { ApiVersion } from '../../../shared/domain.ts';
import { createLogger, registerSecret } from '../log/logger.ts';
import type { JoinCode } from '../relay/join-code.ts';
import { KeyedSequencer } from '../vault/sequencer.ts';
import { vaultKeys } from '../vault/vault.ts';
import { connectionOf, relayCredentialsOf } from './credentials.ts';
import { DemoService, newDemoWorkspace } from './demo.ts';
import { chooseApiVersion, NO_VERSION_REPORT, probeRelay, probeService } from './probes.ts';
import type {
  AddWorkspaceInput,
  JoinTeamInput,
  VersionCheck,
  WorkspaceEvent,
  WorkspaceRegistryOptions,
} from './registry-types.ts';
import { newRelayWorkspace, rejoinedRelayWorkspace, newRemoteWorkspace } from './new-workspace.ts';
import {
  parseName,
  parseToken,
  WorkspaceError,
  WorkspaceInputError,
  type DemoWorkspace,
  type RelayWorkspace,
  type RemoteWorkspace,
  type Workspace,
  type WorkspaceConnection,
} from './workspace.ts';
import { deleteWorkspaceData, sweepOrphanFolders, workspaceDataDir } from './workspace-files.ts';
import { WorkspaceAnnouncer } from './workspace-announcer.ts';
import { WorkspaceList } from './workspace-list.ts';

export type { ConnectionProbe, WorkspaceEvent } from './registry-types.ts';
export { WORKSPACES_FILE } from './workspace-files.ts';

const log = createLogger('workspaces');

/** Opens the registry: loads workspaces.json, brings the demo back if needed, settles the active one. */
export async function openWorkspaceRegistry(options: WorkspaceRegistryOptions): Promise<WorkspaceRegistry> {
  const registry = new WorkspaceRegistry(options);
  await registry.ensureDemo();
  registry.sweepOrphanFolders();
  return registry;
}

export class WorkspaceRegistry {
  readonly #options: WorkspaceRegistryOptions;
  readonly #now: () => Date;
  /** All changes run one at a time, so two dialogs cannot interleave writes of workspaces.json. */
  readonly #lock = new KeyedSequencer();
  readonly #announcer = new WorkspaceAnnouncer();
  readonly #unsubscribeSettings: () => void;
  /** workspaces.json, in memory. */
  readonly #list: WorkspaceList;
  readonly #demo: DemoService;

  /** Prefer openWorkspaceRegistry, which also ensures the demo workspace. */
  constructor(options: WorkspaceRegistryOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    const newId = options.newId ?? (() => randomBytes(9).toString('base64url'));
    this.#demo = new DemoService(options.demo);
    this.#list = new WorkspaceList(options.dataDir, this.#now(), newId);
    // The active workspace is a setting; whoever changes it (switch, or a settings sync), we announce it.
    this.#unsubscribeSettings = options.settings.onChange((next, previous) => {
      if (next.activeWorkspaceId === previous.activeWorkspaceId) return;
      const active = this.active();
      if (active) this.#emit({ type: 'activated', workspace: active });
    });
  }

  list(): readonly Workspace[] {
    return this.#list.all;
  }

  get(id: string): Workspace | undefined {
    return this.#list.get(id);
  }

  /** The active workspace: the one in settings if it still exists, else the first remote, else the demo. */
  active(): Workspace | undefined {
    const chosen = this.#options.settings.get().activeWorkspaceId;
    return (chosen ? this.get(chosen) : undefined) ?? this.#list.firstRemote() ?? this.#list.all[0];
  }

  /** Where a workspace keeps its local data (cache database, downloaded attachments). */
  dataDirFor(id: string): string {
    return workspaceDataDir(this.#options.dataDir, this.#list.require(id).id);
  }

  /**
   * Connects a new service. Probes it first (throws the probe's user-presentable error: wrong token,
   * unreachable, TLS, not the service); only then stores the token and the workspace. The first remote
   * workspace replaces the demo. The new workspace becomes active unless `activate` is false.
   */
  async add(
    input: AddWorkspaceInput,
    options: { signal?: AbortSignal; activate?: boolean } = {},
  ): Promise<RemoteWorkspace> {
    const name = parseName(input.name);
    const { connection, lines, versions } = await probeService(input, this.#options, options.signal);
    const { baseUrl, tokenHeader, token } = connection;
    options.signal?.throwIfAborted();
    const apiVersion = chooseApiVersion(input.apiVersion, versions);

    const created = newRemoteWorkspace(
      this.#list.unusedId(),
      name,
      { baseUrl, tokenHeader },
      apiVersion,
      this.#now(),
    );
    const workspace = await this.#keep(created, vaultKeys.workspaceToken(created.id), token, options);
    log.info('workspace added', { id: created.id, host: new URL(baseUrl).host, lines, apiVersion });
    return workspace as RemoteWorkspace;
  }

  /**
   * Joins the organization a team's relay serves, with the agent's join code: the relay is asked
   * first (throws the probe's error in words: unreachable, credentials refused); only then the seed
   * goes to the vault and the workspace to workspaces.json. No token: the relay holds it. Like `add`,
   * it replaces the demo and becomes active unless `activate` is false.
   */
  async join(
    input: JoinTeamInput,
    options: { signal?: AbortSignal; activate?: boolean } = {},
  ): Promise<RelayWorkspace> {
    const joined = await probeRelay(input, this.#options, options.signal);
    options.signal?.throwIfAborted();
    const { code, apiVersion } = joined;
    const rejoined = await this.#rejoin(joined);
    if (rejoined) {
      if (options.activate !== false) await this.switch(rejoined.id);
      return rejoined;
    }
    const created = newRelayWorkspace(this.#list.unusedId(), joined, this.#now());
    const workspace = await this.#keep(created, vaultKeys.relaySeed(created.id), code.seed, options);
    log.info('workspace joined through a relay', { id: created.id, agentId: code.agentId, apiVersion });
    return workspace as RelayWorkspace;
  }

  /**
   * A new join code for a relay this desktop has joined before (its agent removed, or its key
   * lost): the same workspace takes the new credentials, so its conversations, drafts and notes stay
   * where they were; its session reopens with them (`rejoined`). Undefined: not joined before.
   */
  async #rejoin(joined: Parameters<typeof newRelayWorkspace>[1]): Promise<RelayWorkspace | undefined> {
    return this.#exclusive(async () => {
      const found = rejoinedRelayWorkspace(this.#list.all, joined);
      if (!found) return undefined;
      const { before, rejoined } = found;
      await this.#options.vault.set(vaultKeys.relaySeed(before.id), joined.code.seed);
      this.#list.save(this.#list.all.map((w) => (w.id === before.id ? rejoined : w)));
      log.info('workspace joined again through its relay', { id: before.id, agentId: joined.code.agentId });
      this.#emit({ type: 'rejoined', workspace: rejoined });
      return rejoined;
    });
  }

  /**
   * Stores a new workspace after its check passed: its secret first, then workspaces.json (the
   * secret taken back out if that write fails). The first real workspace replaces the demo.
   */
  async #keep(
    created: RemoteWorkspace | RelayWorkspace,
    secretKey: string,
    secret: string,
    options: { activate?: boolean },
  ): Promise<Workspace> {
    const { workspace, replacedDemo } = await this.#exclusive(async () => {
      await this.#options.vault.set(secretKey, secret);
      const demos = this.#list.all.filter((w) => w.kind === 'demo');
      try {
        this.#list.save([...this.#list.all.filter((w) => w.kind !== 'demo'), created]);
      } catch (error) {
        await this.#options.vault.delete(secretKey).catch(() => {});
        throw error;
      }
      for (const demo of demos) {
        this.#emit({ type: 'removed', workspace: demo });
        await this.#deleteLocalData(demo);
        this.#options.settings.update({ workspaces: { [demo.id]: null } });
      }
      const stored = this.#list.require(created.id);
      this.#emit({ type: 'added', workspace: stored });
      return { workspace: stored, replacedDemo: demos.length > 0 };
    });
    // Replacing the demo always activates: the demo was the active one, and it is gone.
    if (options.activate !== false || replacedDemo) await this.switch(workspace.id);
    return workspace;
  }

  /**
   * Probes a service with a token both ways without storing anything, so the agent can see which API
   * versions work before connecting. Same input rules and failures as `add`.
   */
  async checkVersions(
    input: Pick<AddWorkspaceInput, 'baseUrl' | 'token' | 'tokenHeader'>,
    options: { signal?: AbortSignal } = {},
  ): Promise<VersionCheck> {
    const probed = await probeService(input, this.#options, options.signal);
    const versions = probed.versions ?? NO_VERSION_REPORT;
    return { lines: probed.lines, versions, recommended: chooseApiVersion(undefined, versions) };
  }

  /** Makes `id` the active workspace (persisted in settings; announced as 'activated'). */
  async switch(id: string): Promise<Workspace> {
    return this.#exclusive(async () => {
      const workspace = this.#list.require(id);
      this.#options.settings.update({ activeWorkspaceId: workspace.id });
      return workspace;
    });
  }

  async rename(id: string, newName: string): Promise<Workspace> {
    const name = parseName(newName);
    return this.#exclusive(async () => {
      const current = this.#list.require(id);
      if (current.name === name) return current;
      this.#list.save(this.#list.all.map((w) => (w.id === id ? { ...w, name } : w)));
      const renamed = this.#list.require(id);
      this.#emit({ type: 'renamed', workspace: renamed });
      return renamed;
    });
  }

  /** Replaces a remote workspace's token after probing the service with it; the old one stays on failure. */
  async updateToken(
    id: string,
    newToken: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<Workspace> {
    const workspace = this.#list.requireRemote(id);
    const token = parseToken(newToken);
    registerSecret(token);
    const { baseUrl, tokenHeader } = workspace;
    await this.#options.probe({ baseUrl, tokenHeader, token }, { signal: options.signal });
    options.signal?.throwIfAborted();
    return this.#exclusive(async () => {
      const current = this.#list.requireRemote(id); // it may have been removed while the probe ran
      await this.#options.vault.set(vaultKeys.workspaceToken(id), token);
      log.info('workspace token updated', { id });
      this.#emit({ type: 'token-updated', workspace: current });
      return current;
    });
  }

  /**
   * Moves a workspace to another API version once the service confirms the token works there. Its
   * local data stays: the session that opens next matches what it has to the new version's ids.
   */
  async setApiVersion(
    id: string,
    apiVersion: ApiVersion,
    options: { signal?: AbortSignal } = {},
  ): Promise<Workspace> {
    const workspace = this.#list.require(id);
    if (workspace.apiVersion === apiVersion) return workspace;
    if (workspace.kind === 'relay')
      throw new WorkspaceInputError('apiVersion', "Your team's relay chooses the API version");
    const connection = await this.connectionFor(id);
    const { versions } = await this.#options.probe(connection, { signal: options.signal });
    options.signal?.throwIfAborted();
    chooseApiVersion(apiVersion, versions);
    return this.#exclusive(async () => {
      this.#list.require(id); // it may have been removed while the probe ran
      this.#list.save(this.#list.all.map((w) => (w.id === id ? { ...w, apiVersion } : w)));
      const changed = this.#list.require(id);
      log.info('workspace API version changed', { id, apiVersion });
      this.#emit({ type: 'api-version-changed', workspace: changed });
      return changed;
    });
  }

  /**
   * Removes a workspace with its secrets and local data. If it was active, another one becomes
   * active; if it was the last remote one, the demo comes back. The demo itself cannot be removed
   * while it is the only workspace.
   */
  async remove(id: string): Promise<void> {
    await this.#exclusive(async () => {
      const workspace = this.#list.require(id);
      const remaining = this.#list.all.filter((w) => w.id !== id);
      if (remaining.length === 0 && workspace.kind === 'demo') {
        throw new WorkspaceError('The demo workspace stays until you add a workspace of your own');
      }
      if (workspace.kind !== 'demo') {
        await this.#options.vault.deleteAll(vaultKeys.workspacePrefix(id));
      }
      const demo = remaining.some((w) => w.kind !== 'demo') ? undefined : this.#newDemo();
      this.#list.save(demo ? [...remaining, demo] : remaining);
      log.info('workspace removed', { id, kind: workspace.kind });
      this.#emit({ type: 'removed', workspace });
      if (demo) this.#emit({ type: 'added', workspace: demo });
      await this.#deleteLocalData(workspace);
      // Forget its sync options; if it was active, the fallback (first remote, else the demo) takes over.
      const wasActive = this.#options.settings.get().activeWorkspaceId === id;
      this.#options.settings.update({
        workspaces: { [id]: null },
        ...(wasActive
          ? { activeWorkspaceId: (this.#list.firstRemote() ?? this.#list.all[0])?.id ?? null }
          : {}),
      });
    });
  }

  /** Creates the demo workspace when no workspace exists; returns it, or undefined when remotes exist. */
  async ensureDemo(): Promise<DemoWorkspace | undefined> {
    return this.#exclusive(async () => {
      if (!this.#list.firstRemote()) {
        let demo = this.#list.all.find((w): w is DemoWorkspace => w.kind === 'demo');
        if (!demo) {
          demo = this.#newDemo();
          this.#list.save([demo]);
          log.info('demo workspace created', { id: demo.id });
          this.#emit({ type: 'added', workspace: demo });
        }
      }
      // Settle the setting on a workspace that exists, so every reader agrees on the active one.
      const active = this.active();
      if (active && this.#options.settings.get().activeWorkspaceId !== active.id) {
        this.#options.settings.update({ activeWorkspaceId: active.id });
      }
      return this.#list.all.find((w): w is DemoWorkspace => w.kind === 'demo');
    });
  }

  /** What the API client needs for a workspace (credentials.ts: its token, or the demo's). */
  async connectionFor(id: string): Promise<WorkspaceConnection> {
    return connectionOf(this.#list.require(id), this.#options.vault, this.#demo);
  }

  /** A joined workspace's way to its relay: address, agent and seed (from the vault). */
  async relayCredentialsFor(id: string): Promise<JoinCode> {
    return relayCredentialsOf(this.#list.require(id), this.#options.vault);
  }

  onChange(listener: (event: WorkspaceEvent) => void): () => void {
    return this.#announcer.on(listener);
  }

  /** Stops following settings changes (the registry is not used after this). */
  close(): void {
    this.#unsubscribeSettings();
    this.#announcer.clear();
  }

  /**
   * Deletes data folders that belong to no workspace: left behind when a removal could not delete
   * its folder (a file still open), or by a crash between the steps of remove().
   */
  sweepOrphanFolders(): void {
    sweepOrphanFolders(this.#options.dataDir, (id) => this.get(id) !== undefined);
  }

  async #deleteLocalData(workspace: Workspace): Promise<void> {
    await deleteWorkspaceData(this.#options.dataDir, workspace.id, this.#options.release);
  }

  #newDemo(): DemoWorkspace {
    return newDemoWorkspace(this.#list.unusedId(), this.#now());
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    return this.#lock.run('registry', task);
  }

  #emit(event: WorkspaceEvent): void {
    this.#announcer.emit(event);
  }
}
