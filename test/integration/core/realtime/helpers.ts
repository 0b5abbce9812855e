/**
 * A workspace session with live events against the sandbox: real listener, real keychain (run under
 * scripts/with-keyring.sh; each run uses its own keychain service name), real SQLite.
 */
import { randomBytes } from 'node:crypto';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import {
  RealtimeService,
  type RealtimeServiceOptions,
} from '../../../../electron/core/realtime/realtime-service.ts';
import { signV2Delivery, signV3Delivery } from '../../../webhook-signing.ts';
import { DirectTunnel } from '../../../../electron/core/realtime/tunnels/direct.ts';
import { WorkspaceSession } from '../../../../electron/core/session.ts';
import type { SyncOptions } from '../../../../electron/core/sync/engine.ts';
import { KeyringVault } from '../../../../electron/core/vault/keyring-vault.ts';
import { vaultKeys } from '../../../../electron/core/vault/vault.ts';
import { control, eventually, tempDir } from '../helpers.ts';

/** Polling so slow that only a webhook can explain a change within a test. */
export const SLOW_POLLING: Partial<SyncOptions> = {
  openChatIntervalMs: 60_000,
  backgroundIntervalMs: 60_000,
  liveBackgroundIntervalMs: 60_000,
  contactsIntervalMs: 60 * 60_000,
};

export interface LiveWorkspace {
  session: WorkspaceSession;
  realtime: RealtimeService;
  vault: KeyringVault;
  workspaceId: string;
  /** Every value passed to sync.setWebhooksLive, in order. */
  liveCalls: boolean[];
  /** Resolves once the inbox poll that follows the first sync has run (the next is an interval away). */
  firstPollDone: Promise<unknown>;
  secret(): Promise<string>;
  close(): Promise<void>;
}

export interface LiveWorkspaceOptions {
  sync?: Partial<SyncOptions>;
  realtime?: Partial<Omit<RealtimeServiceOptions, 'session' | 'vault' | 'workspaceId'>>;
  /** Reuse a vault / workspace id (a restarted app). */
  vault?: KeyringVault;
  workspaceId?: string;
  dataDir?: string;
  /** Start the realtime service (default true). */
  startRealtime?: boolean;
  /** The workspace's API version (default v2). */
  apiVersion?: 'v2' | 'v3';
}

export async function openLiveWorkspace(
  sandbox: RunningSandbox,
  options: LiveWorkspaceOptions = {},
): Promise<LiveWorkspace> {
  const dir = options.dataDir ? undefined : tempDir('parley-live-');
  const vault =
    options.vault ?? new KeyringVault({ service: `ParleyTest-${randomBytes(6).toString('hex')}` });
  const workspaceId = options.workspaceId ?? randomBytes(9).toString('base64url');
  const session = new WorkspaceSession({
    dataDir: options.dataDir ?? (dir?.path as string),
    connection: {
      baseUrl: sandbox.url,
      tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN',
      token: sandbox.tokens[0] as string,
    },
    sync: { ...SLOW_POLLING, ...options.sync },
    ...(options.apiVersion ? { apiVersion: options.apiVersion } : {}),
    client: { backoff: { baseMs: 50, capMs: 500 } },
  });
  const liveCalls: boolean[] = [];
  const setLive = session.sync.setWebhooksLive.bind(session.sync);
  session.sync.setWebhooksLive = (live: boolean) => {
    liveCalls.push(live);
    setLive(live);
  };
  await session.start();
  // The first sync stamps lastSyncedAt; the poll right after it stamps it again.
  const afterFirstSync = session.sync.status.lastSyncedAt;
  const firstPollDone = eventually(
    () => session.sync.status.lastSyncedAt !== afterFirstSync,
    'the first inbox poll',
  );
  const realtime = new RealtimeService({
    workspaceId,
    session,
    vault,
    tunnel: new DirectTunnel(),
    backoff: { baseMs: 100, capMs: 1_000 },
    probeGraceMs: 2_000,
    ...options.realtime,
  });
  if (options.startRealtime !== false) await realtime.start();
  return {
    session,
    realtime,
    vault,
    workspaceId,
    liveCalls,
    firstPollDone,
    secret: async () =>
      (await vault.get(
        options.apiVersion === 'v3'
          ? vaultKeys.webhookSecretV3(workspaceId)
          : vaultKeys.webhookSecret(workspaceId),
      )) as string,
    async close() {
      await realtime.stop();
      await session.close();
      if (!options.vault) await vault.deleteAll('workspace/').catch(() => 0);
      dir?.remove();
    },
  };
}

/** Makes failed deliveries come back within milliseconds instead of seconds. */
export async function fastRetries(sandbox: RunningSandbox): Promise<void> {
  await control(sandbox, 'PUT', '/config', { webhook_retry_base_ms: 200 });
}

export interface Delivery {
  subscription_id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  url: string;
  status_code: number | null;
  ok: boolean;
  fault: string | null;
}

export async function deliveries(sandbox: RunningSandbox, eventType?: string): Promise<Delivery[]> {
  const query = eventType ? `?event_type=${encodeURIComponent(eventType)}` : '';
  return (await control<{ deliveries: Delivery[] }>(sandbox, 'GET', `/deliveries${query}`)).deliveries;
}

/** Waits until the sandbox has nothing in flight or waiting to retry. */
export async function webhooksIdle(sandbox: RunningSandbox): Promise<void> {
  await eventually(
    async () => (await control<{ idle: boolean }>(sandbox, 'POST', '/webhooks/idle')).idle,
    'webhook deliveries idle',
  );
}

/** A V3 delivery as the service would sign it (Standard Webhooks), for hand-made requests. */
export function signedV3Delivery(
  secret: string,
  event: { type: string; data: unknown; eventId?: string; createdAt?: string; nowMs?: number },
): { body: string; headers: Record<string, string>; eventId: string } {
  const eventId = event.eventId ?? crypto.randomUUID();
  const body = JSON.stringify({
    api_version: 'v3',
    webhook_version: '2026-02-03',
    event_type: event.type,
    event_id: eventId,
    created_at: event.createdAt ?? new Date().toISOString(),
    trace_id: null,
    partner_id: null,
    data: event.data,
  });
  return {
    body,
    eventId,
    headers: { 'content-type': 'application/json', ...signV3Delivery(secret, eventId, body, event.nowMs) },
  };
}

/** A delivery as the service would sign it (for hand-made requests). */
export function signedDelivery(
  secret: string,
  event: { type: string; data: unknown; eventId?: string; createdAt?: string },
): { body: string; headers: Record<string, string>; eventId: string } {
  const eventId = event.eventId ?? crypto.randomUUID();
  const body = JSON.stringify({
    api_version: 'v2',
    created_at: event.createdAt ?? new Date().toISOString(),
    data: event.data,
    event_id: eventId,
    event_type: event.type,
  });
  return {
    body,
    eventId,
    headers: { 'content-type': 'application/json', 'x-webhook-signature': signV2Delivery(secret, body) },
  };
}

export async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  method = 'POST',
): Promise<number> {
  const response = await fetch(url, { method, body, headers });
  await response.body?.cancel();
  return response.status;
}
