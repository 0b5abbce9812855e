/**
 * The registry's list of workspaces as workspaces.json holds it, in memory: lookups that say in
 * words what is missing, the one write, and fresh ids. The registry decides the order of a change's
 * steps (secrets, this file, the data folder) and announces it; this only keeps the list.
 */
import { join } from 'node:path';
import {
  WorkspaceError,
  WorkspaceNotFoundError,
  type RelayWorkspace,
  type RemoteWorkspace,
  type Workspace,
} from './workspace.ts';
import { loadWorkspaces, saveWorkspaces, WORKSPACES_FILE } from './workspace-files.ts';

export class WorkspaceList {
  readonly #file: string;
  readonly #newId: () => string;
  #workspaces: readonly Workspace[];

  constructor(dataDir: string, now: Date, newId: () => string) {
    this.#file = join(dataDir, WORKSPACES_FILE);
    this.#newId = newId;
    this.#workspaces = loadWorkspaces(this.#file, now);
  }

  get all(): readonly Workspace[] {
    return this.#workspaces;
  }

  get(id: string): Workspace | undefined {
    return this.#workspaces.find((workspace) => workspace.id === id);
  }

  require(id: string): Workspace {
    const workspace = this.get(id);
    if (!workspace) throw new WorkspaceNotFoundError(id);
    return workspace;
  }

  /** A workspace with a token of its own (not joined through a relay, not the demo). */
  requireRemote(id: string): RemoteWorkspace {
    const workspace = this.require(id);
    if (workspace.kind === 'relay')
      throw new WorkspaceError("A workspace joined through your team's relay has no token to change");
    if (workspace.kind !== 'remote') throw new WorkspaceError('The demo workspace has no token to change');
    return workspace;
  }

  /** The first workspace of the user's own (connected or joined): it outranks the demo. */
  firstRemote(): RemoteWorkspace | RelayWorkspace | undefined {
    return this.#workspaces.find((w): w is RemoteWorkspace | RelayWorkspace => w.kind !== 'demo');
  }

  unusedId(): string {
    for (;;) {
      const id = this.#newId();
      if (!this.get(id)) return id;
    }
  }

  /** Writes workspaces.json; the list is what was written. */
  save(workspaces: Workspace[]): void {
    this.#workspaces = saveWorkspaces(this.#file, workspaces);
  }
}
