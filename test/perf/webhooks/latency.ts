/** Latency of npm run bench:webhooks: the sandbox's customer messages to a live workspace's store. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealtimeService } from '../../../electron/core/realtime/realtime-service.ts';
import { DirectTunnel } from '../../../electron/core/realtime/tunnels/direct.ts';
import { WorkspaceSession } from '../../../electron/core/session.ts';
import { InMemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { spawnSandbox } from '../lib.ts';
import { LATENCY_EVENTS, LATENCY_RATE } from './config.ts';

/**
 * Customer messages from the sandbox to a live workspace of that API version, timed from the
 * event's `created_at` to the store's `messages.changed` for the message. Messages are matched by
 * the service's id: V2's number, V3's UUID (through the store's map of V3 ids to local ones).
 */
export async function latency(apiVersion: 'v2' | 'v3'): Promise<Record<string, unknown>> {
  const sandbox = await spawnSandbox(['--seed', 'demo', '--quiet', '--rate', '100000', '--burst', '100000']);
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-live-'));
  const session = new WorkspaceSession({
    dataDir: dir,
    connection: { baseUrl: sandbox.url, tokenHeader: 'X-PARTNER-INTEGRATION-TOKEN', token: sandbox.token },
    apiVersion,
    sync: { openChatIntervalMs: 600_000, backgroundIntervalMs: 600_000, liveBackgroundIntervalMs: 600_000 },
  });
  const emittedAt = new Map<number | string, number>();
  const samples: number[] = [];
  const realtime = new RealtimeService({
    workspaceId: `bench-${apiVersion}`,
    session,
    vault: new InMemoryVault(),
    tunnel: new DirectTunnel(),
    beforeRecord: (event) => {
      if (event.type === 'message.received') emittedAt.set(event.data.id, Date.parse(event.createdAt));
    },
  });
  try {
    await session.start();
    await realtime.start();
    if (realtime.status.state !== 'live') throw new Error(`not live: ${realtime.status.reason}`);
    session.store.events.on('messages.changed', ({ keys }) => {
      const now = Date.now();
      for (const message of session.store.messages.byKeys(keys)) {
        if (message.id === null) continue;
        // V3 messages are stored under local ids; the store maps them back to the service's UUIDs.
        const serviceId =
          apiVersion === 'v3' ? session.store.remoteIds.remoteId('message', message.id) : message.id;
        const at = serviceId === undefined ? undefined : emittedAt.get(serviceId);
        if (at === undefined || serviceId === undefined) continue;
        emittedAt.delete(serviceId);
        samples.push(now - at);
      }
    });
    const chats = session.store.chats.list().filter((c) => !c.isGroup);
    const control = { 'x-sandbox-admin-secret': sandbox.adminSecret, 'content-type': 'application/json' };
    console.log(
      `latency (${apiVersion.toUpperCase()}): ${LATENCY_EVENTS} customer messages at ${LATENCY_RATE}/s …`,
    );
    const started = performance.now();
    const inflight: Array<Promise<unknown>> = [];
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      const due = started + (i * 1000) / LATENCY_RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const chat = chats[i % chats.length];
      inflight.push(
        fetch(`${sandbox.url}/__sandbox/inbound/message`, {
          method: 'POST',
          headers: control,
          // The control API takes either version's chat id.
          body: JSON.stringify({
            chat_id: apiVersion === 'v3' ? chat?.v3ChatId : chat?.id,
            text: `latency ${i}`,
          }),
        }).then(async (r) => {
          if (!r.ok) throw new Error(`inbound message ${i}: ${r.status} ${await r.text()}`);
        }),
      );
    }
    await Promise.all(inflight);
    const sentSeconds = (performance.now() - started) / 1000;
    const deadline = Date.now() + 15_000;
    while (samples.length < LATENCY_EVENTS && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    samples.sort((a, b) => a - b);
    const pct = (p: number) =>
      samples[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))] ?? null;
    return {
      api_version: apiVersion,
      events: LATENCY_EVENTS,
      target_rate_per_second: LATENCY_RATE,
      achieved_rate_per_second: Math.round(LATENCY_EVENTS / sentSeconds),
      measured: samples.length,
      ms_p50: pct(50),
      ms_p90: pct(90),
      ms_p99: pct(99),
      ms_max: samples.at(-1) ?? null,
    };
  } finally {
    await realtime.stop();
    await session.close();
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
