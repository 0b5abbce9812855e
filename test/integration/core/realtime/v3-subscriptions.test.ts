/**
 * A V3 workspace's subscription looks after itself like V2's: one per installation across restarts
 * (updated with PUT, never duplicated), re-pointed when the tunnel's URL changes, recreated when its
 * `whsec_` secret is missing from the keychain, deactivated on quit, deleted with the workspace.
 * Each restart is a new RealtimeService on the same store and keychain, as after relaunching the app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { RealtimeService } from '../../../../electron/core/realtime/realtime-service.ts';
import { DirectTunnel } from '../../../../electron/core/realtime/tunnels/direct.ts';
import { isOwnV3Subscription } from '../../../../electron/core/realtime/v3-subscriptions.ts';
import { vaultKeys } from '../../../../electron/core/vault/vault.ts';
import { control, eventually, sandboxFor } from '../helpers.ts';
import { type LiveWorkspace, openLiveWorkspace } from './helpers.ts';

let sandbox: RunningSandbox;
let ws: LiveWorkspace;
let realtime: RealtimeService | undefined;

beforeAll(async () => {
  sandbox = await sandboxFor();
  ws = await openLiveWorkspace(sandbox, { apiVersion: 'v3', startRealtime: false });
});
afterAll(async () => {
  await realtime?.stop();
  await ws?.close();
  await sandbox?.stop();
});

const ours = async () =>
  (await ws.session.v3.webhooks.list()).filter((s) => isOwnV3Subscription(s, ws.workspaceId));
const v3Secret = () => ws.vault.get(vaultKeys.webhookSecretV3(ws.workspaceId));

/** The app starting: a new service on the same store and keychain (a new listener port: a new URL). */
async function launch(): Promise<RealtimeService> {
  realtime = new RealtimeService({
    workspaceId: ws.workspaceId,
    session: ws.session,
    vault: ws.vault,
    tunnel: new DirectTunnel(),
    backoff: { baseMs: 100, capMs: 1_000 },
  });
  await realtime.start();
  expect(realtime.status.state).toBe('live');
  return realtime;
}

/** A customer message reaches the store through the subscription now kept. */
async function deliveryArrives(): Promise<void> {
  const chat = ws.session.store.chats.list().find((c) => !c.isGroup && c.v3ChatId);
  const { v3_message_id } = await control<{ v3_message_id: string }>(sandbox, 'POST', '/inbound/message', {
    chat_id: chat?.v3ChatId,
    text: `through the kept subscription ${Date.now()}`,
  });
  await eventually(() => ws.session.store.remoteIds.find('message', v3_message_id) !== undefined, 'applied');
}

describe('the V3 webhook subscription', () => {
  let firstId: string;
  let firstSecret: string;
  let firstUrl: string;

  it('is created once, active, with every event, its whsec_ secret kept in the keychain', async () => {
    const service = await launch();
    const mine = await ours();
    expect(mine).toHaveLength(1);
    const [subscription] = mine;
    expect(subscription).toMatchObject({ is_active: true, target_url: service.webhookUrl });
    expect(subscription?.subscribed_events).toEqual(
      expect.arrayContaining(['message.received', 'reaction.added']),
    );
    firstId = subscription?.id as string;
    firstUrl = subscription?.target_url as string;
    firstSecret = (await v3Secret()) as string;
    expect(firstSecret).toMatch(/^whsec_/);
    // The V2 subscription would deliver every event a second time.
    const v2 = await ws.session.client.webhooks.list();
    expect(v2.filter((s) => s.active && s.webhook_url.includes(ws.workspaceId))).toEqual([]);
    await deliveryArrives();
  });

  it('is deactivated on quit', async () => {
    await realtime?.stop();
    const [subscription] = await ours();
    expect(subscription).toMatchObject({ id: firstId, is_active: false });
  });

  it('is taken up again by the next start: same id and secret, re-pointed at the new URL', async () => {
    const service = await launch();
    expect(service.webhookUrl).not.toBe(firstUrl);
    const mine = await ours();
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: firstId, is_active: true, target_url: service.webhookUrl });
    expect(await v3Secret()).toBe(firstSecret);
    await deliveryArrives();
  });

  it('is recreated when its secret is missing from the keychain: the old one goes, the new secret verifies', async () => {
    await realtime?.stop();
    await ws.vault.delete(vaultKeys.webhookSecretV3(ws.workspaceId));
    const service = await launch();
    const mine = await ours();
    expect(mine).toHaveLength(1);
    expect(mine[0]?.id).not.toBe(firstId);
    expect(mine[0]).toMatchObject({ is_active: true, target_url: service.webhookUrl });
    const secret = await v3Secret();
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(firstSecret);
    await deliveryArrives();
  });

  it('is deleted, with its secret, when the workspace is removed', async () => {
    await realtime?.removeWorkspace();
    realtime = undefined;
    expect(await ours()).toEqual([]);
    expect(await v3Secret()).toBeNull();
  });
});
