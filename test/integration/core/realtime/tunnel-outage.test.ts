/**
 * The tunnel is a real separate process (a loopback reverse proxy) that the test kills. While it is
 * down: status polling-only, faster polling, and messages still arrive (by polling). When it comes
 * back on a new port, that is a new public URL: the subscription is re-pointed and pushes resume.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chat } from '../../../../shared/domain.ts';
import type { RunningSandbox } from '../../../../sandbox/index.ts';
import { control, eventually, sandboxFor, service } from '../helpers.ts';
import { ProxyTunnel } from './fixtures/proxy-tunnel.ts';
import { deliveries, fastRetries, type LiveWorkspace, openLiveWorkspace } from './helpers.ts';

let sandbox: RunningSandbox;
let ws: LiveWorkspace;
let chat: Chat;
let customer: string;
const tunnel = new ProxyTunnel();

beforeAll(async () => {
  sandbox = await sandboxFor();
  await fastRetries(sandbox);
  ws = await openLiveWorkspace(sandbox, {
    // Polling: every 300 ms while webhooks are down, once a minute while they are live.
    sync: { backgroundIntervalMs: 300, liveBackgroundIntervalMs: 60_000 },
    realtime: { tunnel, healthIntervalMs: 250, backoff: { baseMs: 100, capMs: 400 } },
  });
  chat = ws.session.store.chats.list().find((c) => !c.isGroup && c.service === 'SMS') as Chat;
  customer = chat.handles.find((h) => !h.isMe)?.identifier as string;
});
afterAll(async () => {
  await ws?.close();
  await sandbox?.stop();
});

const subscriptionUrl = async (): Promise<string | undefined> => {
  const { webhook_subscriptions: subs } = await service<{
    webhook_subscriptions: Array<{ id: number; webhook_url: string; active: boolean }>;
  }>(sandbox, '/webhook_subscriptions');
  return subs.find((s) => s.active)?.webhook_url;
};

async function customerSays(text: string): Promise<number> {
  const { data } = await control<{ data: { id: number } }>(sandbox, 'POST', '/inbound/message', {
    chat_id: chat.id,
    from: customer,
    text,
  });
  return data.id;
}

describe('a tunnel that dies and comes back', () => {
  let firstUrl: string;

  it('is live through the proxy process', async () => {
    expect(ws.realtime.status.state).toBe('live');
    firstUrl = tunnel.urls[0] as string;
    expect(await subscriptionUrl()).toBe(ws.realtime.webhookUrl);
    expect(ws.realtime.webhookUrl?.startsWith(firstUrl)).toBe(true);
    const id = await customerSays('through the first proxy');
    await eventually(() => ws.session.store.messages.byId(id), 'delivered through the proxy');
    const via = (await deliveries(sandbox, 'message.received')).find((d) => d.ok);
    expect(via?.url.startsWith(firstUrl)).toBe(true);
  });

  it('killed: polling-only status, faster polling, and nothing is missed meanwhile', async () => {
    tunnel.accepting = false;
    const callsBefore = ws.liveCalls.length;
    tunnel.kill();
    const status = await eventually(
      () => (ws.realtime.status.state === 'polling' ? ws.realtime.status : undefined),
      'polling-only status',
    );
    expect(status.reason).toMatch(/proxy/i);
    expect(ws.liveCalls.slice(callsBefore)).toContain(false); // the sync engine polls at its fast pace

    const ids = [await customerSays('while the tunnel is down'), await customerSays('still down')];
    await eventually(() => ids.every((id) => ws.session.store.messages.byId(id)), 'messages by polling');
    // Still down, still pointing at the dead proxy: polling, not a webhook, brought them.
    expect(ws.realtime.status.state).not.toBe('live');
    expect((await subscriptionUrl())?.startsWith(firstUrl)).toBe(true);
  });

  it('restarted on a new port: the subscription is re-pointed and pushes resume', async () => {
    tunnel.accepting = true;
    await eventually(() => ws.realtime.status.state === 'live', 'live again', 10_000);
    const secondUrl = tunnel.urls.at(-1) as string;
    expect(secondUrl).not.toBe(firstUrl);
    expect(await subscriptionUrl()).toBe(ws.realtime.webhookUrl);
    expect(ws.realtime.webhookUrl?.startsWith(secondUrl)).toBe(true);
    expect(ws.liveCalls.at(-1)).toBe(true);

    const id = await customerSays('through the new proxy');
    await eventually(() => ws.session.store.messages.byId(id), 'delivered through the new proxy');
    await eventually(
      async () =>
        (await deliveries(sandbox, 'message.received')).some((d) => d.ok && d.url.startsWith(secondUrl)),
      'a delivery through the new URL',
    );
    // Retries of what failed while down also land now: each message is still stored once.
    const texts = ws.session.store.messages
      .page(chat.id, { limit: 50 })
      .map((m) => m.text)
      .filter((t) => t === 'while the tunnel is down' || t === 'still down');
    expect(texts.sort()).toEqual(['still down', 'while the tunnel is down']);
  });
});
