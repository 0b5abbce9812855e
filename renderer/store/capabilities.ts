/**
 * The workspace's version and what a chat can do there, read from the store. The derivation itself
 * is lib/capabilities.ts; these are the selectors components use.
 */
import type { ApiVersion } from '../../shared/domain.ts';
import { apiVersionOf, capabilitiesOf, type Capabilities } from '../lib/capabilities.ts';
import type { Store } from './index.ts';

/** The active workspace's API version (absent: V2). */
export function workspaceVersionOf(s: Pick<Store, 'workspaces' | 'activeWorkspaceId'>): ApiVersion {
  return s.workspaces.find((w) => w.id === s.activeWorkspaceId)?.apiVersion ?? 'v2';
}

/**
 * What can be done in one chat of the active workspace (a chat that came from V3 keeps V3's
 * capabilities). The same object for the same version, so `useStore(chatCapabilities(id))` re-renders
 * only when the capabilities change.
 */
export function chatCapabilities(
  chatId: number,
): (s: Pick<Store, 'workspaces' | 'activeWorkspaceId' | 'chatsById'>) => Capabilities {
  return (s) => capabilitiesOf(apiVersionOf(s.chatsById[chatId], { apiVersion: workspaceVersionOf(s) }));
}
