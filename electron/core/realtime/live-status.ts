/**
 * The one place that turns the push path's parts into its status (which decides how fast the sync
 * engine polls): 'live' only when every part works. The app core shows it unless the service cannot
 * be reached at all (the session's reachability), which is 'offline' whatever this says.
 */
import type { ConnectionStatus } from '../../../shared/domain.ts';
import type { TunnelState } from './tunnel-supervisor.ts';

/** Where pointing the subscription at the tunnel's URL stands. */
export interface Pointing {
  url: string;
  phase: 'pending' | 'ok' | 'failed';
  reason?: string;
  /** The service could not be reached (as opposed to refusing the subscription). */
  offline?: boolean;
}

export interface LiveParts {
  /** Started and not stopped. */
  on: boolean;
  /** A problem retrying cannot fix (keychain, listener port, direct tunnel to a remote service). */
  fatal: string | null;
  tunnelKind: string;
  tunnel: TunnelState;
  pointing: Pointing | null;
  /** The service's counters say its deliveries do not arrive. */
  deliveryProblem: string | null;
}

export function liveStatus(parts: LiveParts): ConnectionStatus {
  if (!parts.on) return { state: 'polling', reason: 'Live events are off' };
  if (parts.fatal) return { state: 'polling', reason: parts.fatal };
  const tunnel = parts.tunnel;
  switch (tunnel.phase) {
    case 'idle':
      return { state: 'reconnecting', reason: 'Starting live events…' };
    case 'connecting':
      return {
        state: 'reconnecting',
        reason:
          tunnel.attempt > 1
            ? `Reconnecting the ${parts.tunnelKind} tunnel (attempt ${tunnel.attempt})…`
            : `Opening the ${parts.tunnelKind} tunnel…`,
      };
    case 'down': {
      const seconds = Math.round(tunnel.retryInMs / 1000);
      const when = `${tunnel.retryable ? 'Retrying' : 'Checking again'} ${seconds < 2 ? 'in a moment' : `in ${seconds} s`}`;
      return {
        state: 'polling',
        reason: `${tunnel.reason.replace(/[.\s]+$/, '')}. ${when}; new messages arrive by polling meanwhile.`,
      };
    }
    case 'up':
      break;
  }
  const pointing = parts.pointing;
  if (!pointing || pointing.phase === 'pending') {
    return { state: 'reconnecting', reason: 'Pointing the webhook subscription at this computer…' };
  }
  if (pointing.phase === 'failed') {
    return pointing.offline
      ? { state: 'offline', reason: `The service can't be reached (${pointing.reason}); retrying` }
      : {
          state: 'polling',
          reason: `The service did not accept the webhook subscription (${pointing.reason}); retrying`,
        };
  }
  if (parts.deliveryProblem) {
    return {
      state: 'polling',
      reason: `${parts.deliveryProblem}; new messages arrive by polling meanwhile.`,
    };
  }
  return { state: 'live', reason: null };
}
