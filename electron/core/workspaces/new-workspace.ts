/**
 * The record of a workspace about to be stored, from what its check found (probes.ts): a service
 * connected with a token (`WorkspaceRegistry.add`) or a team's relay joined with a join code
 * (`WorkspaceRegistry.join`). Apart from registry.ts, which keeps the order of the steps that store it.
 */
import type { ApiVersion } from '../../../shared/domain.ts';
import type { JoinCode } from '../relay/join-code.ts';
import {
  DEFAULT_TOKEN_HEADER,
  type RelayWorkspace,
  type RemoteWorkspace,
  type Workspace,
} from './workspace.ts';

/** A service connected: its address and token header (the token itself goes to the vault). */
export function newRemoteWorkspace(
  id: string,
  name: string,
  service: { baseUrl: string; tokenHeader: string },
  apiVersion: ApiVersion,
  now: Date,
): RemoteWorkspace {
  return {
    id,
    name,
    kind: 'remote',
    baseUrl: service.baseUrl,
    tokenHeader: service.tokenHeader,
    createdAt: now.toISOString(),
    apiVersion,
  };
}

/** A team's relay joined: its address, the agent, the relay's CA (the seed goes to the vault). */
export function newRelayWorkspace(
  id: string,
  joined: { code: JoinCode; relayUrl: string; name: string; apiVersion: ApiVersion },
  now: Date,
): RelayWorkspace {
  const { code, relayUrl, name, apiVersion } = joined;
  return {
    id,
    name,
    kind: 'relay',
    baseUrl: null,
    relayUrl,
    agentId: code.agentId,
    ...(code.ca ? { relayCa: code.ca } : {}),
    tokenHeader: DEFAULT_TOKEN_HEADER,
    createdAt: now.toISOString(),
    apiVersion,
  };
}

/**
 * The relay workspace a new join code joins again (the same relay address), with the code's
 * credentials in place of its old ones; undefined when this desktop has not joined that relay.
 */
export function rejoinedRelayWorkspace(
  workspaces: readonly Workspace[],
  joined: Parameters<typeof newRelayWorkspace>[1],
): { before: RelayWorkspace; rejoined: RelayWorkspace } | undefined {
  const before = workspaces.find(
    (w): w is RelayWorkspace => w.kind === 'relay' && w.relayUrl === joined.relayUrl,
  );
  if (!before) return undefined;
  const { relayCa: _previousCa, ...kept } = before;
  return {
    before,
    rejoined: {
      ...kept,
      agentId: joined.code.agentId,
      ...(joined.code.ca ? { relayCa: joined.code.ca } : {}),
      apiVersion: joined.apiVersion,
    },
  };
}
