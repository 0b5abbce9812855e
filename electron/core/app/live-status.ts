import type { LiveStatus, PublicSettings } from '../../../shared/contract/views.ts';
import type { RealtimeDetails } from '../realtime/index.ts';
import type { ServiceSession } from '../session.ts';

/** What the live status is read from: the open session, its live events, and why they are not running. */
export interface LiveStatusParts {
  settings: PublicSettings;
  session: ServiceSession | undefined;
  /** Whether the active workspace is joined to a team's relay (its live events are the relay's log). */
  joined: boolean;
  /** The running live events' own account; undefined while none run. */
  push: RealtimeDetails | undefined;
  /** Why the active joined workspace could not reach its relay. */
  relayProblem: string | null;
  /** Why live events could not even be set up. */
  realtimeError: string | null;
}

/** What the live connection is doing (webhooks through a tunnel, the relay's log, or polling only). */
export function liveStatusOf(parts: LiveStatusParts): LiveStatus {
  const { settings, session, joined } = parts;
  const sync = session?.sync.status ?? {
    phase: 'idle',
    chatsKnown: 0,
    chatsWithMessages: 0,
    lastSyncedAt: null,
    error: null,
  };
  const push = parts.push ?? {
    state: 'polling' as const,
    reason:
      parts.relayProblem ??
      (settings.sync.webhooksEnabled || joined
        ? (parts.realtimeError ?? 'Starting live events…')
        : 'Live events are off: new messages arrive by polling'),
    provider: settings.sync.tunnel.provider,
    publicUrl: null,
    lastEventAt: null,
    subscription: null,
  };
  const reachability = session?.reachability.state;
  return {
    ...push,
    provider: joined ? 'relay' : settings.sync.tunnel.provider,
    // Offline trumps everything the push path says: nothing reaches the service either way.
    ...(reachability?.reachable === false ? { state: 'offline', reason: reachability.reason } : {}),
    sync,
    pollIntervalMs: session?.sync.inboxIntervalMs ?? settings.sync.backgroundPollIntervalMs,
  };
}

/**
 * Sends the live status to the renderer once per turn however many of its parts changed: the
 * returned function asks for an announcement, `send` makes it on the next turn.
 */
export function onePerTurn(send: () => void): () => void {
  let pending: ReturnType<typeof setImmediate> | undefined;
  return () => {
    if (pending) return;
    pending = setImmediate(() => {
      pending = undefined;
      send();
    });
  };
}
