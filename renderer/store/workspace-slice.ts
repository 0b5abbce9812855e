/** The workspace, settings and connection: what the app is connected to and how well. */
import type { StateCreator } from 'zustand';
import type { AppInfo, LiveStatus, PublicSettings, WorkspaceInfo } from '../../shared/contract/views.ts';
import type { ConnectionStatus, SyncStatus } from '../../shared/domain.ts';
import type { Store } from './index.ts';

export interface WorkspaceSlice {
  appInfo: AppInfo | null;
  workspaces: WorkspaceInfo[];
  activeWorkspaceId: string | null;
  settings: PublicSettings | null;
  /** Both follow `live`, which the core sends whole on every change. */
  connection: ConnectionStatus;
  sync: SyncStatus | null;
  live: LiveStatus | null;
  /** The renderer's own link to the core (the browser host's WebSocket). */
  bridgeConnected: boolean;
  setAppInfo(info: AppInfo): void;
  setWorkspaces(workspaces: WorkspaceInfo[], activeId: string | null): void;
  setSettings(settings: PublicSettings): void;
  setLive(status: LiveStatus): void;
  setBridgeConnected(connected: boolean): void;
}

export const createWorkspaceSlice: StateCreator<Store, [], [], WorkspaceSlice> = (set) => ({
  appInfo: null,
  workspaces: [],
  activeWorkspaceId: null,
  settings: null,
  connection: { state: 'polling', reason: null },
  sync: null,
  live: null,
  bridgeConnected: true,
  setAppInfo: (appInfo) => set({ appInfo }),
  setWorkspaces: (workspaces, activeWorkspaceId) => set({ workspaces, activeWorkspaceId }),
  setSettings: (settings) => set({ settings }),
  setLive: (live) => set({ live, connection: { state: live.state, reason: live.reason }, sync: live.sync }),
  setBridgeConnected: (bridgeConnected) => set({ bridgeConnected }),
});

/** What the agent should be told about being online: used by the banner and the indicator. */
export type Reachability = 'live' | 'polling' | 'offline';

export function reachabilityOf(
  s: Pick<WorkspaceSlice, 'bridgeConnected' | 'connection' | 'sync'>,
): Reachability {
  if (!s.bridgeConnected) return 'offline';
  if (s.sync?.phase === 'offline' || s.connection.state === 'offline') return 'offline';
  return s.connection.state === 'live' ? 'live' : 'polling';
}
