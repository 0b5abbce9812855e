import type { ApiVersion } from '../../shared/domain.ts';
import type { Store } from './index.ts';

/** The active workspace's API version (absent: V2). */
export function workspaceVersionOf(s: Pick<Store, 'workspaces' | 'activeWorkspaceId'>): ApiVersion {
  return s.workspaces.find((w) => w.id === s.activeWorkspaceId)?.apiVersion ?? 'v2';
}
