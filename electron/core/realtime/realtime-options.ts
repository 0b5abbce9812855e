import type { LiveStatus } from '../../../shared/contract/views.ts';
import type { ConnectionStatus } from '../../../shared/domain.ts';
import type { V3LocalIds } from '../api/v3/domain-map.ts';
import type { V3WebhooksApi } from '../api/v3/endpoints/webhooks.ts';
import type { WorkspaceSession } from '../session.ts';
import type { Vault } from '../vault/vault.ts';
import type { LiveEvent } from './live-event.ts';
import type { Backoff } from './tunnel-supervisor.ts';
import type { Tunnel } from './tunnels/tunnel.ts';

/** What the realtime service uses of a workspace session. */
export type RealtimeSession = Pick<WorkspaceSession, 'store' | 'client' | 'sync' | 'reachability'> &
  Partial<Pick<WorkspaceSession, 'apiVersion' | 'v3'>>;

export interface RealtimeServiceOptions {
  workspaceId: string;
  session: RealtimeSession;
  vault: Vault;
  tunnel: Tunnel;
  /** The listener's port; default the tunnel's fixed port, else any free one. */
  port?: number;
  /** Tunnel health checks while up. Default 30 s. */
  healthIntervalMs?: number;
  /** Reading the subscription back (its delivery counters) while up. Default 60 s. */
  subscriptionCheckIntervalMs?: number;
  /** Tunnel restarts and subscription retries. Default 1 s doubling to 60 s. */
  backoff?: Backoff;
  /** How long a fresh tunnel URL may take to reach the listener. Default 20 s. */
  probeGraceMs?: number;
  /** Failed delivery attempts in a row (by the service's counters, since one last reached Parley) that mean "not live". Default 3. */
  failedDeliveryThreshold?: number;
  /** Hears every status change (the app core announces it with the rest of the live status). */
  onStatus?: (status: ConnectionStatus) => void;
  /**
   * Runs before a verified delivery is recorded, and is awaited: throwing or rejecting answers 500,
   * so the service retries. The team relay appends the raw delivery to its event log here (the 200
   * waits for the log's ack); tests use it to fail a delivery on purpose.
   */
  beforeRecord?: (event: LiveEvent, body: Buffer) => void | Promise<void>;
  /** The workspace's API version. Default the session's, else 'v2'. */
  apiVersion?: 'v2' | 'v3';
  /** What V3 live events need. Default the session's V3 client and the store's V3 id mapping. */
  v3?: { webhooks: V3WebhooksApi; ids: V3LocalIds };
}

/**
 * What the UI shows about live events (the bridge's LiveStatus, less the sync's part); `publicUrl`
 * is the tunnel's public base URL (the webhook path, a capability, is left out).
 */
export interface RealtimeDetails
  extends ConnectionStatus, Pick<LiveStatus, 'publicUrl' | 'lastEventAt' | 'subscription'> {
  provider: string;
}
