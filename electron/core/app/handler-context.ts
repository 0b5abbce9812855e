import type { StorageStatus } from '../../../shared/contract/errors.ts';
import type * as Views from '../../../shared/contract/views.ts';
import type { ServiceSession } from '../session.ts';
import type { SettingsStore } from '../settings/index.ts';
import type { Vault } from '../vault/index.ts';
import type { WorkspaceRegistry } from '../workspaces/index.ts';
import type { Notifier } from './notifier.ts';
import type { LocalAttachment } from '../attachments/attachment-cache.ts';

/** What only the host can do (Electron: shell; browser host: mostly nothing). */
export interface HostPorts {
  /** Opens an already-allowlisted URL in the system browser. */
  openExternal(url: string): Promise<void>;
  /** Opens a local file with the system viewer, or offers to save it. */
  openFile?(path: string, options: { save: boolean; filename: string }): Promise<void>;
}

/** A received attachment as a file on this machine. */
export type { LocalAttachment };

/**
 * Everything the bridge handlers use of the app, and nothing more: the core provides it (AppCore
 * implements it), so the handlers depend on this seam and not on the core's construction.
 */
export interface HandlerContext {
  /** The active workspace's session; throws a `no_workspace` error when none is open. */
  readonly session: ServiceSession;
  readonly registry: WorkspaceRegistry;
  readonly settings: SettingsStore;
  readonly vault: Vault;
  readonly ports: HostPorts;
  /** Who is running: the version, the host and the platform `app.info` reports. */
  readonly version: string;
  readonly host: 'electron' | 'browser';
  readonly platform: string;
  readonly isDemo: boolean;
  /** Undefined while no workspace is open. */
  readonly notifier: Notifier | undefined;
  /** The page listed the inbox: a session held back at start-up may catch up with the service now. */
  noteInboxListed(): void;
  /** Resolves once the session changes under way (a switch, a reopen on another API version) are done. */
  sessionSettled(): Promise<void>;
  workspaceList(): Views.WorkspaceList;
  workspaceInfo(id: string): Views.WorkspaceInfo;
  publicSettings(): Views.PublicSettings;
  liveStatus(): Views.LiveStatus;
  configureLive(input: {
    enabled: boolean;
    provider: Views.TunnelProvider;
    customPublicUrl?: string | undefined;
    ngrokAuthtoken?: string | undefined;
  }): Promise<Views.LiveStatus>;
  /** Removes a workspace's webhook subscriptions before it goes (see AppCore.forgetLive). */
  forgetLive(workspaceId: string): Promise<void>;
  attachmentFile(attachmentId: string): Promise<LocalAttachment | undefined>;
  /** Whether the open workspace's store can write now (or why the last one could not even open). */
  storageStatus(): StorageStatus;
}
