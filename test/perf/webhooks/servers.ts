/**
 * The servers of npm run bench:webhooks, each run as `bench-webhooks.ts --serve <kind>` in a child
 * process: a bare node:http + HMAC baseline for each version's deliveries, and the webhook listener
 * as RealtimeService wires it.
 * Each answers the parent's CPU-time queries over IPC.
 */
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookEventApplier } from '../../../electron/core/realtime/event-applier.ts';
import { WebhookInbox } from '../../../electron/core/realtime/inbox.ts';
import { InboxProcessor } from '../../../electron/core/realtime/inbox-processor.ts';
import { WebhookListener } from '../../../electron/core/realtime/listener.ts';
import { ReceiptBatcher } from '../../../electron/core/realtime/receipt-batcher.ts';
import { LocalStore } from '../../../electron/core/store/local-store.ts';
import { Reconciler } from '../../../electron/core/sync/reconciler.ts';
import type { LiveEvent } from '../../../electron/core/realtime/live-event.ts';
import { CHATS, customerOf, LINE, PATH, SECRET, V3_SECRET } from './config.ts';

/** Bare node:http with V2's signature check (HMAC of the body, hex): V2's floor. */
export function serveBaseline(): Promise<number> {
  return serveBare((body, headers) => ({
    given: Buffer.from(String(headers['x-webhook-signature']).slice(7), 'hex'),
    expected: createHmac('sha256', SECRET).update(body).digest(),
  }));
}

/**
 * V3's bare counterpart: node:http and the Standard Webhooks HMAC over `{id}.{timestamp}.{body}`
 * (the key made once, as the listener makes it), on V3's own bodies — the floor V3's receipt path is
 * measured against, as V2's is against the baseline above on V2's bodies.
 */
export function serveBaselineV3(): Promise<number> {
  const key = createSecretKey(Buffer.from(V3_SECRET.slice('whsec_'.length), 'base64'));
  return serveBare((body, headers) => ({
    given: Buffer.from(String(headers['webhook-signature']).slice(3), 'base64'),
    expected: createHmac('sha256', key)
      .update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.`)
      .update(body)
      .digest(),
  }));
}

/** node:http answering 200 when the signature `sign` finds in a delivery matches, else 401. */
async function serveBare(
  sign: (body: Buffer, headers: IncomingHttpHeaders) => { given: Buffer; expected: Buffer },
): Promise<number> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const { given, expected } = sign(Buffer.concat(chunks), req.headers);
      const ok = given.length === expected.length && timingSafeEqual(given, expected);
      res.writeHead(ok ? 200 : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  answerCpuQueries(async () => ({}));
  return (server.address() as AddressInfo).port;
}

/**
 * The parent asks each server for the CPU time it used under load ('start' … 'stop'), which other
 * processes on the machine cannot inflate, unlike wall-clock throughput. 'drain' (listeners) then
 * applies what is left in the inbox and reports that too.
 */
function answerCpuQueries(drain: () => Promise<Record<string, number>>): void {
  let mark = process.cpuUsage();
  process.on('message', async (command: string) => {
    if (command === 'start') {
      mark = process.cpuUsage();
      process.send?.({});
    } else if (command === 'stop') {
      process.send?.({ cpuUs: cpuSince(mark) });
    } else if (command === 'drain') {
      const before = process.cpuUsage();
      const result = await drain();
      process.send?.({ ...result, drainCpuUs: cpuSince(before) });
    }
  });
}

function cpuSince(mark: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(mark);
  return user + system;
}

/**
 * The listener as RealtimeService wires it. `applyDuringLoad` false holds the applying back until
 * the load is over: the receipt path alone (verify, validate, durable enqueue, ack).
 */
export async function serveListener(applyDuringLoad: boolean, version: 'v2' | 'v3' = 'v2'): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const store = new LocalStore(join(dir, 'workspace.db'));
  // An inbox of CHATS customers, each in their own chat (messages spread as in a real inbox).
  store.transaction(() => {
    store.lines.upsert({
      id: 1,
      phoneNumber: LINE,
      forwardingNumber: null,
      responseRate: null,
      userName: null,
      userEmail: null,
    });
    for (let chat = 1; chat <= CHATS; chat++) {
      store.chats.upsert([
        {
          id: chat,
          lineId: 1,
          handles: [{ id: chat, identifier: customerOf(chat), service: 'SMS', joinedAt: null, isMe: false }],
        },
      ]);
    }
  });
  const inbox = new WebhookInbox(store);
  const processor = new InboxProcessor({
    store,
    inbox,
    applier: new WebhookEventApplier(store, new Reconciler(store), store.remoteIds),
    refreshChat: async () => {},
  });
  const listener = new WebhookListener();
  await listener.start();
  let applied = 0;
  store.events.on('messages.changed', ({ keys }) => (applied += keys.length));
  // Exactly what RealtimeService's route does: group-committed receipts, then the processor.
  const held: Array<[number, LiveEvent]> = [];
  const receipts = new ReceiptBatcher(inbox, (seq, event) =>
    applyDuringLoad ? processor.queued(seq, event) : held.push([seq, event]),
  );
  listener.addRoute(PATH, {
    version,
    secret: version === 'v3' ? V3_SECRET : SECRET,
    receive: async (event, body) => (await receipts.record(event, body.toString('utf8'))).outcome,
  });
  answerCpuQueries(async () => {
    const started = performance.now();
    for (const [seq, event] of held.splice(0)) processor.queued(seq, event);
    while (inbox.count() > 0) await new Promise((r) => setTimeout(r, 5));
    return { applied, drainMs: Math.round(performance.now() - started) };
  });
  return listener.port;
}
