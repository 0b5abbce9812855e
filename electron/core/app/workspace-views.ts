import type { PublicSettings, WorkspaceInfo, WorkspaceList } from '../../../shared/contract/views.ts';
import type { Settings } from '../settings/index.ts';
import { workspaceSyncOf } from '../settings/index.ts';
import type { WorkspaceRegistry } from '../workspaces/index.ts';
import { UserFacingError } from './errors.ts';

/** The workspaces as the page lists them, and which is active. */
export function workspaceListOf(registry: WorkspaceRegistry): WorkspaceList {
  const active = registry.active()?.id ?? null;
  return { workspaces: registry.list().map((w) => workspaceInfoOf(registry, w.id)), activeId: active };
}

/** One workspace as the page sees it (never its token). */
export function workspaceInfoOf(registry: WorkspaceRegistry, id: string): WorkspaceInfo {
  const w = registry.get(id);
  if (!w) throw new UserFacingError('not_found', 'No such workspace');
  return {
    id: w.id,
    name: w.name,
    kind: w.kind,
    baseUrl: w.baseUrl,
    relayUrl: w.kind === 'relay' ? w.relayUrl : null,
    tokenHeader: w.tokenHeader,
    apiVersion: w.apiVersion,
    active: registry.active()?.id === w.id,
  };
}

/** The settings the page may read, with the active workspace's sync settings (defaults without one). */
export function publicSettingsOf(settings: Settings, activeId: string | undefined): PublicSettings {
  const sync = activeId ? workspaceSyncOf(settings, activeId) : workspaceSyncOf(settings, '_');
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
