/** What the workspace registry is built with, what it is given, and what it announces. */
import type { ApiVersion } from '../../../shared/domain.ts';
import type { JoinCode } from '../relay/join-code.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { Vault } from '../vault/vault.ts';
import type { Workspace } from './workspace.ts';

/**
 * Checks that a service answers and accepts a token with one cheap authenticated call. Throws an
 * error whose message the user can act on (core/api/probe.ts `probeConnection` is the real one).
 */
export type ConnectionProbe = (
  connection: { baseUrl: string; tokenHeader: string; token: string },
  options?: { signal?: AbortSignal },
) => Promise<{ lines: number; versions?: ApiVersionsAvailable }>;

/**
 * Connects to a team's relay with an agent's credentials and asks what it serves; throws an error
 * whose message the user can act on (relay unreachable, credentials refused). core/relay/join.ts.
 */
export type RelayProbe = (
  target: JoinCode,
  options?: { signal?: AbortSignal },
) => Promise<{ apiVersion: ApiVersion }>;

/** What "Join your team" is given: a join code, and the relay's address when it differs from the code's. */
export interface JoinTeamInput {
  joinCode: string;
  /** Default: the address in the join code. */
  relayUrl?: string;
  /** Default: "Team". */
  name?: string;
}

/** Which API versions the token works with (V2 always does once the probe passed). */
export interface ApiVersionsAvailable {
  v2: boolean;
  v3: boolean;
  /** Why V3 does not take the token (the service's answer in words), when it does not. */
  v3Refusal?: string;
}

/** What a connect form is shown before the agent picks a version: nothing is stored by the check. */
export interface VersionCheck {
  lines: number;
  versions: ApiVersionsAvailable;
  /** What `add` uses when not told: V3 where it works, else V2. */
  recommended: ApiVersion;
}

/** Starts (once) the embedded sandbox behind the demo workspace; the host implements it. */
export interface DemoSandboxPort {
  start(): Promise<{ url: string; token: string }>;
}

export interface WorkspaceRegistryOptions {
  /** The app's data folder: workspaces.json and `workspaces/<id>/` live here. */
  dataDir: string;
  vault: Vault;
  settings: SettingsStore;
  probe: ConnectionProbe;
  /** Asks a team's relay before a workspace is joined to it. Without one, joining is refused. */
  relayProbe?: RelayProbe;
  demo: DemoSandboxPort;
  /**
   * Called before a workspace's data folder is deleted, so the host can close what it holds open
   * there (its SQLite database: Windows cannot delete open files).
   */
  release?: (workspaceId: string) => Promise<void>;
  /** Allow plain http to non-loopback hosts (default false: the token would travel in clear text). */
  allowInsecureHttp?: boolean;
  now?: () => Date;
  newId?: () => string;
}

export interface AddWorkspaceInput {
  name: string;
  baseUrl: string;
  token: string;
  /** Default X-PARTNER-INTEGRATION-TOKEN. */
  tokenHeader?: string;
  /** The API to use; default: V3 when the token works there, else V2. */
  apiVersion?: ApiVersion;
}

export type WorkspaceEvent =
  | { type: 'added'; workspace: Workspace }
  | { type: 'renamed'; workspace: Workspace }
  /** The token changed: connections made with the old one should be rebuilt through connectionFor. */
  | { type: 'token-updated'; workspace: Workspace }
  /** A relay workspace joined again with a new code: its session reopens with the new credentials. */
  | { type: 'rejoined'; workspace: Workspace }
  /** The API version changed: its session should be rebuilt through connectionFor. */
  | { type: 'api-version-changed'; workspace: Workspace }
  | { type: 'removed'; workspace: Workspace }
  | { type: 'activated'; workspace: Workspace };
