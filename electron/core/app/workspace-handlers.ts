/**
 * The workspaces' bridge methods (shared/contract/workspace-methods.ts): connect a service (its
 * versions checked first), join a team's relay, switch, rename, replace a token, move to another API
 * version, remove. The registry does each change in its safe order; a change that opens another
 * session is answered once that session is open, so what the page reads next comes from it.
 */
import type { workspaceMethods } from '../../../shared/contract/workspace-methods.ts';
import { vaultKeys } from '../vault/index.ts';
import type { Handlers } from './dispatch.ts';
import type { HandlerContext } from './handler-context.ts';

export function createWorkspaceHandlers(core: HandlerContext): Pick<Handlers, keyof typeof workspaceMethods> {
  return {
    'workspaces.list': () => core.workspaceList(),
    'workspaces.probe': async (input) => {
      const { lines, versions, recommended } = await core.registry.checkVersions({
        baseUrl: input.baseUrl,
        token: input.token,
        ...(input.tokenHeader ? { tokenHeader: input.tokenHeader } : {}),
      });
      const refused = (reason: string | undefined) => ({
        works: false as const,
        reason: reason ?? 'The service refused this token for this version',
      });
      return {
        lines,
        v2: versions.v2 ? { works: true } : refused(undefined),
        v3: versions.v3 ? { works: true } : refused(versions.v3Refusal),
        recommended,
      };
    },
    'workspaces.add': async (input) => {
      const workspace = await core.registry.add(
        {
          name: input.name,
          baseUrl: input.baseUrl,
          token: input.token,
          ...(input.tokenHeader ? { tokenHeader: input.tokenHeader } : {}),
          ...(input.apiVersion ? { apiVersion: input.apiVersion } : {}),
        },
        { activate: true },
      );
      // Answered once its session is open, so what the UI reads next comes from it.
      await core.sessionSettled();
      return core.workspaceInfo(workspace.id);
    },
    'workspaces.join': async (input) => {
      const workspace = await core.registry.join(
        {
          joinCode: input.joinCode,
          ...(input.relayUrl ? { relayUrl: input.relayUrl } : {}),
          ...(input.name ? { name: input.name } : {}),
        },
        { activate: true },
      );
      // Answered once its session is open, as `add` is.
      await core.sessionSettled();
      return core.workspaceInfo(workspace.id);
    },
    'workspaces.switch': async ({ id }) => {
      await core.registry.switch(id);
      await core.sessionSettled();
      return core.workspaceList();
    },
    'workspaces.rename': async ({ id, name }) =>
      core.workspaceInfo((await core.registry.rename(id, name)).id),
    'workspaces.updateToken': async ({ id, token }) =>
      core.workspaceInfo((await core.registry.updateToken(id, token)).id),
    'workspaces.setApiVersion': async ({ id, apiVersion }) => {
      const moved = await core.registry.setApiVersion(id, apiVersion);
      // The active workspace's session reopens on the new version: answer once it has, so what the
      // UI reads next comes from it.
      await core.sessionSettled();
      return core.workspaceInfo(moved.id);
    },
    'workspaces.remove': async ({ id }) => {
      await core.forgetLive(id);
      await core.registry.remove(id);
      await core.vault.delete(vaultKeys.webhookSecret(id)).catch(() => false);
      // Removing the active workspace opens another: answer once it is open.
      await core.sessionSettled();
      return core.workspaceList();
    },
  };
}
