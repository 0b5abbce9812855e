/**
 * npm run bench:sandbox — loopback throughput of the sandbox: list chats (25 per page) and send
 * message on V2 and on V3, and webhook fan-out. Writes docs/bench/sandbox.json. Target: ≥ 3,000 list-chats requests/s.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { machine, spawnSandbox, writeReport } from './lib.ts';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 32;

async function load(options: autocannon.Options): Promise<autocannon.Result> {
  return await autocannon({ duration: DURATION_S, connections: CONNECTIONS, ...options });
}

const summary = (r: autocannon.Result) => ({
  requests_per_second: Math.round(r.requests.average),
  latency_ms_p50: r.latency.p50,
  latency_ms_p99: r.latency.p99,
  non_2xx: r.non2xx,
  errors: r.errors,
  total: r.requests.total,
});

async function main(): Promise<void> {
  const sandbox = await spawnSandbox([
    '--seed',
    'demo',
    '--quiet',
    '--rate',
    '100000000',
    '--burst',
    '100000000',
  ]);
  const headers = { 'x-partner-integration-token': sandbox.token, 'content-type': 'application/json' };
  const api = `${sandbox.url}/api/partner/v2`;
  try {
    const lines = (await (await fetch(`${api}/phone_numbers`, { headers })).json()) as {
      phone_numbers: Array<{ phone_number: string }>;
    };
    const line = lines.phone_numbers[0]?.phone_number;
    if (!line) throw new Error('demo seed has no line');
    const chats = (await (
      await fetch(`${api}/chats?phone_number=${encodeURIComponent(line)}`, { headers })
    ).json()) as { data: Array<{ id: number }> };
    const chatId = chats.data[0]?.id;

    console.log(`list chats for ${DURATION_S}s …`);
    const list = await load({
      url: `${api}/chats?phone_number=${encodeURIComponent(line)}&per_page=25`,
      headers,
    });

    console.log(`send message for ${DURATION_S}s …`);
    const send = await load({
      url: `${api}/chats/${chatId}/chat_messages`,
      method: 'POST',
      headers,
      body: JSON.stringify({ message: { text: 'Benchmark message' } }),
    });

    const v3Headers = { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' };
    const v3Api = `${sandbox.url}/api/partner/v3`;
    const v3Chats = (await (await fetch(`${v3Api}/chats?limit=1`, { headers: v3Headers })).json()) as {
      chats: Array<{ id: string }>;
    };
    console.log(`V3 list chats for ${DURATION_S}s …`);
    const v3List = await load({ url: `${v3Api}/chats?limit=25`, headers: v3Headers });
    console.log(`V3 send message (202) for ${DURATION_S}s …`);
    const v3Send = await load({
      url: `${v3Api}/chats/${v3Chats.chats[0]?.id}/messages`,
      method: 'POST',
      headers: v3Headers,
      body: JSON.stringify({ message: { parts: [{ type: 'text', value: 'Benchmark message' }] } }),
    });

    console.log('webhook fan-out …');
    const fanout = await webhookFanout(sandbox.url, sandbox.token, sandbox.adminSecret);

    const report = {
      command: 'npm run bench:sandbox',
      at: new Date().toISOString(),
      machine: machine(),
      duration_s: DURATION_S,
      connections: CONNECTIONS,
      list_chats_25_per_page: summary(list),
      send_message: summary(send),
      v3_list_chats_25: summary(v3List),
      v3_send_message_202: summary(v3Send),
      webhook_fanout: fanout,
      target: { list_chats_requests_per_second: 3000, met: list.requests.average >= 3000 },
    };
    const file = writeReport('sandbox', report);
    console.log(JSON.stringify(report, null, 2));
    console.log(`written to ${file}`);
  } finally {
    await sandbox.stop();
  }
}

/** 5 subscriptions × N inbound messages: deliveries per second until every delivery has landed. */
async function webhookFanout(
  url: string,
  token: string,
  adminSecret: string,
): Promise<Record<string, number>> {
  const SUBSCRIPTIONS = 5;
  const EVENTS = 2000;
  let received = 0;
  let resolveAll: () => void = () => {};
  const all = new Promise<void>((resolve) => (resolveAll = resolve));
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200).end();
      if (++received === SUBSCRIPTIONS * EVENTS) resolveAll();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const headers = { 'x-partner-integration-token': token, 'content-type': 'application/json' };
  for (let i = 0; i < SUBSCRIPTIONS; i++) {
    await fetch(`${url}/api/partner/v2/webhook_subscriptions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        webhook_subscription: {
          webhook_url: hook,
          version: 2,
          events: ['message.received'],
          secret: `s${i}`,
        },
      }),
    });
  }
  const control = { 'x-sandbox-admin-secret': adminSecret, 'content-type': 'application/json' };
  const started = performance.now();
  const inject = async (i: number) => {
    const res = await fetch(`${url}/__sandbox/inbound/message`, {
      method: 'POST',
      headers: control,
      body: JSON.stringify({
        from: `+1415555${String(2000 + (i % 50)).padStart(4, '0')}`,
        text: `fan-out ${i}`,
      }),
    });
    await res.arrayBuffer();
  };
  for (let i = 0; i < EVENTS; i += 20) await Promise.all(Array.from({ length: 20 }, (_, k) => inject(i + k)));
  await Promise.race([all, new Promise((r) => setTimeout(r, 60_000))]);
  const seconds = (performance.now() - started) / 1000;
  receiver.close();
  return {
    subscriptions: SUBSCRIPTIONS,
    events: EVENTS,
    deliveries: received,
    seconds: Math.round(seconds * 100) / 100,
    deliveries_per_second: Math.round(received / seconds),
  };
}

await main();
