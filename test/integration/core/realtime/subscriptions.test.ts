/**
 * Subscriptions that look after themselves: one active subscription per workspace for this
 * installation, earlier ones reused rather than duplicated, others' left alone; deactivated on quit,
 * deleted with the workspace; health judged from the service's own delivery counters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { RealtimeService } from '../../../../electron/core/realtime/realtime-service.ts';
import { webhookPathFor } from '../../../../electron/core/realtime/subscriptions.ts';
import { DirectTunnel } from '../../../../electron/core/realtime/tunnels/direct.ts';
import type { LiveEvent } from '../../../../electron/core/realtime/live-event.ts';
import { vaultKeys } from '../../../../electron/core/vault/vault.ts';
import { control, eventually, sandboxFor } from '../helpers.ts';
import { fastRetries, type LiveWorkspace, openLiveWorkspace } from './helpers.ts';

interface Subscription {
  id: number;
  webhook_url: string;
  active: boolean;
  delivery_attempts: number;
}

const SECRET = 'whsec_known_to_the_test_0123456789';
let sandbox: RunningSandbox;
let ws: LiveWorkspace;
let path: string;
let refuseDeliveries = false;

beforeAll(async () => {
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  ws = await openLiveWorkspace(sandbox, { startRealtime: false });
  await ws.vault.set(vaultKeys.webhookSecret(ws.workspaceId), SECRET);
  path = webhookPathFor(ws.workspaceId, SECRET);
});
afterAll(async () => {
  await ws?.close();
  await sandbox?.stop();
});

const api = () => ws.session.client.webhooks;
const list = async (): Promise<Subscription[]> => (await api().list()) as Subscription[];
const ours = async () => (await list()).filter((s) => s.webhook_url.includes(`/hooks/${ws.workspaceId}/`));

function realtimeFor(
  options: Partial<ConstructorParameters<typeof RealtimeService>[0]> = {},
): RealtimeService {
  return new RealtimeService({
    workspaceId: ws.workspaceId,
    session: ws.session,
    vault: ws.vault,
    tunnel: new DirectTunnel(),
    backoff: { baseMs: 100, capMs: 1_000 },
    ...options,
  });
}

describe('the webhook subscription', () => {
  let keeperId: number;
  let foreignId: number;
  let movedId: number;

  it("on start, reuses this installation's earlier subscription, deactivates its duplicates, leaves others alone", async () => {
    const events = ['message.received'] as const;
    const foreign = await api().create({
      url: 'https://colleague.example/hooks/their-workspace/abc',
      events,
    });
    foreignId = foreign.id;
    // Earlier runs of this installation, behind tunnels long gone (hosts differ; the path is ours).
    const old = await api().create({ url: `https://old-tunnel.trycloudflare.com${path}`, events });
    const older = await api().create({
      url: `https://a1b2.ngrok-free.app/prefix${path}`,
      events,
      active: false,
    });
    // Ours too, made before the keychain lost the secret: another last segment.
    const lostSecret = await api().create({
      url: `http://127.0.0.1:9/hooks/${ws.workspaceId}/oldMarker`,
      events,
    });

    await ws.realtime.start();
    expect(ws.realtime.status.state).toBe('live');

    const after = await list();
    expect(after).toHaveLength(4); // updated, not duplicated
    const active = after.filter((s) => s.active);
    expect(active.map((s) => s.id).sort()).toEqual([foreignId, ws.realtime.subscription?.id].sort());
    keeperId = ws.realtime.subscription?.id as number;
    expect([old.id, older.id, lostSecret.id]).toContain(keeperId);
    expect(after.find((s) => s.id === keeperId)?.webhook_url).toBe(ws.realtime.webhookUrl);
    expect(after.find((s) => s.id === foreignId)?.webhook_url).toBe(foreign.webhook_url);
  });

  it('is deactivated on quit and taken up again (same id, new URL) by the next start', async () => {
    const before = ws.realtime.webhookUrl;
    await ws.realtime.stop();
    expect((await ours()).every((s) => !s.active)).toBe(true);
    expect(ws.liveCalls.at(-1)).toBe(false);

    ws.realtime = realtimeFor();
    await ws.realtime.start();
    expect(ws.realtime.status.state).toBe('live');
    const mine = await ours();
    expect(mine.filter((s) => s.active).map((s) => s.id)).toEqual([keeperId]);
    expect(ws.realtime.webhookUrl).not.toBe(before); // a new listener port
    expect(mine.find((s) => s.id === keeperId)?.webhook_url).toBe(ws.realtime.webhookUrl);
  });

  it('is reactivated when someone deactivates it on the service; one moved elsewhere is theirs to keep', async () => {
    await ws.realtime.stop();
    ws.realtime = realtimeFor({ subscriptionCheckIntervalMs: 100 });
    await ws.realtime.start();
    await api().update(keeperId, { active: false });
    await eventually(async () => {
      const keeper = (await list()).find((s) => s.id === keeperId);
      return keeper?.active && keeper.webhook_url === ws.realtime.webhookUrl;
    }, 'the subscription reactivated');

    // Pointed at another URL, it no longer has our path: we make a new one and leave that one be.
    await api().update(keeperId, { url: 'https://elsewhere.example/hook' });
    movedId = keeperId;
    const replacement = await eventually(
      async () => (await ours()).find((s) => s.active && s.webhook_url === ws.realtime.webhookUrl),
      'a new subscription of ours',
    );
    expect(replacement.id).not.toBe(movedId);
    expect((await list()).find((s) => s.id === movedId)).toMatchObject({
      webhook_url: 'https://elsewhere.example/hook',
      active: true,
    });
  });

  it("falls back to polling when the service's counters show failing deliveries, and recovers", async () => {
    await ws.realtime.stop();
    ws.realtime = realtimeFor({
      subscriptionCheckIntervalMs: 150,
      failedDeliveryThreshold: 3,
      beforeRecord: (_event: LiveEvent) => {
        if (refuseDeliveries) throw new Error('refusing deliveries for the test');
      },
    });
    await ws.realtime.start();
    expect(ws.realtime.status.state).toBe('live');
    const chat = ws.session.store.chats.list().find((c) => !c.isGroup);
    const customer = chat?.handles.find((h) => !h.isMe)?.identifier;

    refuseDeliveries = true;
    const { data } = await control<{ data: { id: number } }>(sandbox, 'POST', '/inbound/message', {
      chat_id: chat?.id,
      from: customer,
      text: 'Are you there?',
    });
    const polling = await eventually(
      () => (ws.realtime.status.state === 'polling' ? ws.realtime.status : undefined),
      'polling-only status',
    );
    expect(polling.reason).toMatch(/delivery attempts did not reach Parley/);
    expect(ws.liveCalls.at(-1)).toBe(false);

    refuseDeliveries = false; // the service's next retry gets through
    await eventually(() => ws.session.store.messages.byId(data.id), 'the retried delivery applied');
    await eventually(() => ws.realtime.status.state === 'live', 'live again');
    expect(ws.liveCalls.at(-1)).toBe(true);
  });

  it('is deleted, with its secret, when the workspace is removed', async () => {
    await ws.realtime.removeWorkspace();
    expect(await ours()).toEqual([]);
    expect((await list()).map((s) => s.id).sort()).toEqual([foreignId, movedId].sort());
    expect(await ws.vault.get(vaultKeys.webhookSecret(ws.workspaceId))).toBeNull();
  });
});
