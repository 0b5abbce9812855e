import { registerSecret } from '../log/logger.ts';
import type { JoinCode } from '../relay/join-code.ts';
import { vaultKeys, type Vault } from '../vault/vault.ts';
import type { DemoService } from './demo.ts';
import {
  WorkspaceError,
  WorkspaceTokenMissingError,
  type Workspace,
  type WorkspaceConnection,
} from './workspace.ts';

/**
 * What the API client needs for a workspace. A remote workspace's token comes from the vault
 * (VaultUnavailableError if the keychain is unavailable, WorkspaceTokenMissingError if it is gone);
 * the demo's comes from the embedded sandbox, started on first use.
 */
export async function connectionOf(
  workspace: Workspace,
  vault: Vault,
  demo: DemoService,
): Promise<WorkspaceConnection> {
  if (workspace.kind === 'demo') return demo.connection(workspace.tokenHeader);
  if (workspace.kind === 'relay')
    throw new WorkspaceError(`"${workspace.name}" reaches its service through the team's relay`);
  const token = await vault.get(vaultKeys.workspaceToken(workspace.id));
  if (token === null) throw new WorkspaceTokenMissingError(workspace);
  return { baseUrl: workspace.baseUrl, tokenHeader: workspace.tokenHeader, token };
}

/** A joined workspace's way to its relay: address, agent and seed (from the vault). */
export async function relayCredentialsOf(workspace: Workspace, vault: Vault): Promise<JoinCode> {
  if (workspace.kind !== 'relay') throw new WorkspaceError(`"${workspace.name}" is not joined to a relay`);
  const seed = await vault.get(vaultKeys.relaySeed(workspace.id));
  if (seed === null) throw new WorkspaceTokenMissingError(workspace);
  registerSecret(seed);
  return {
    url: workspace.relayUrl,
    agentId: workspace.agentId,
    seed,
    ...(workspace.relayCa ? { ca: workspace.relayCa } : {}),
  };
}
