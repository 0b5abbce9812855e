import { createLogger } from '../log/logger.ts';
import type { EventName, Events } from '../../../shared/contract/events.ts';
import type { RelayPortsFactory } from '../relay/relay-ports.ts';
import { JoinedSession, type JoinedSessionOptions } from '../team/joined-session.ts';
import { RelayConnectionError } from '../relay/relay-link.ts';
import { relayPorts } from '../relay/relay-ports.ts';
import type { SessionOptions } from '../session.ts';
import type { WorkspaceRegistry } from '../workspaces/index.ts';

const log = createLogger('app');

/** A joined workspace's session, or why its relay could not be reached and whether to try again. */
export type JoinedOpening = { session: JoinedSession } | { problem: string; tryAgain: boolean };

/**
 * Opens a workspace joined to its team's relay (no token: the relay's ports stand in for the
 * service). A relay that does not answer does not hold it: it opens on its store and its link
 * tries again every `relayRetryMs`. Credentials refused are the one failure: they need a new join code.
 */
export async function openJoinedWorkspace(
  registry: WorkspaceRegistry,
  id: string,
  options: Omit<SessionOptions, 'connection'> & { relayRetryMs?: number },
  ports: RelayPortsFactory = relayPorts,
  team?: JoinedSessionOptions['team'],
): Promise<JoinedOpening> {
  try {
    return {
      session: await JoinedSession.open(await registry.relayCredentialsFor(id), {
        ...options,
        ports,
        ...(team ? { team } : {}),
      }),
    };
  } catch (error) {
    if (!(error instanceof RelayConnectionError)) throw error;
    log.warn('could not reach the relay', { reason: error.message });
    return { problem: error.message, tryAgain: !error.refused };
  }
}

/** Forwards a joined workspace's team news to the renderer; returns what detaches it. */
export function forwardTeamEvents(
  session: JoinedSession,
  emit: <E extends EventName>(event: E, payload: Events[E]) => void,
): Array<() => void> {
  return [
    session.team.onChanged((change) => emit('team.changed', change)),
    session.team.onMention((notice) => emit('team.mention', notice)),
  ];
}
