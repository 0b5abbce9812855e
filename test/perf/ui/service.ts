/**
 * bench:ui's service: 2,000 chats, one of 20,000 messages, built in-process from the sandbox's own
 * pieces; and its control API.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createClock } from '../../../sandbox/clock.ts';
import { createChat, receiveMessage } from '../../../sandbox/domain/chats.ts';
import { createContact, defaultOwner } from '../../../sandbox/domain/contacts.ts';
import { cloneConfig, createOrg, createWorld, DEFAULT_CONFIG } from '../../../sandbox/domain/world.ts';
import { buildApp } from '../../../sandbox/http/app.ts';
import { createFaultBook } from '../../../sandbox/http/faults.ts';
import { createRateLimiter } from '../../../sandbox/http/rate-limit.ts';
import { DEMO_TOKEN } from '../../../sandbox/index.ts';
import { createRandom } from '../../../sandbox/random.ts';
import { pastOutbound } from '../../../sandbox/seed/basics.ts';
import { seedOrg } from '../../../sandbox/seed/index.ts';
import { bulkCustomerPhone } from '../../../sandbox/seed/numbers.ts';
import { createWebhookDispatcher } from '../../../sandbox/webhooks/dispatcher.ts';
import { CHATS, LONG_CHAT_MESSAGES } from './config.ts';

const MIN = 60_000;
const LONG_TEXTS = [
  'Hi! Is the 10am appointment still on for tomorrow?',
  'Yes, our technician will be there between 10 and 11.',
  'Great, thanks.',
  'Could you also take a look at the water heater while you are here? It has been making a knocking noise for a couple of days, mostly in the morning.',
  'Of course. I added it to the work order.',
  '👍',
  'What do I owe for last week?',
  'The invoice is $245.00, you can pay online or by phone.\nLet me know if you need a copy.',
  'Paid, thank you!',
  'Running a few minutes late, sorry.',
  'No problem at all.',
  'Can you send the warranty details for the new thermostat? I want to keep them with the manual.',
] as const;

export interface BenchService {
  url: string;
  adminSecret: string;
  longChatId: number;
  longChatName: string;
  stop(): Promise<void>;
}

/**
 * The sandbox's own pieces (world, HTTP app, webhooks), assembled as startSandbox does, with the
 * bulk seed for 1,999 chats and one more built message by message: 20,000 over the last four
 * weeks, both sides, in runs, newest a minute ago (so it tops the inbox).
 */
export async function startService(): Promise<BenchService> {
  const clock = createClock({ speed: 1 });
  const world = createWorld(clock, createRandom('parley-bench-ui'), {
    ...cloneConfig(DEFAULT_CONFIG),
    quiet: true,
    // Not the subject here: neither the service nor the client budget (below) should pace the sync.
    rateLimit: { perSecond: 100_000, burst: 100_000 },
  });
  const adminSecret = `adm_${randomBytes(12).toString('base64url')}`;
  const webhooks = createWebhookDispatcher(world);
  const app = buildApp({
    world,
    limiter: createRateLimiter(world.config.rateLimit),
    faults: createFaultBook(world.random),
    webhooks,
    adminSecret,
    served: { total: 0, status_429: 0 },
    reset: async () => {
      throw new Error('the bench organization cannot be reset');
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  world.baseUrl = `http://127.0.0.1:${port}`;

  const org = createOrg(world, { name: 'Bench organization', token: DEMO_TOKEN });
  seedOrg(world, org, { kind: 'bulk', chats: CHATS - 1, messagesPerChat: 10 }, { orgIndex: 0 });
  const line = org.lines[0]!;
  const identifier = bulkCustomerPhone(CHATS - 1);
  world.personas.set(identifier, {
    identifier,
    firstName: 'Morgan',
    lastName: 'Reyes',
    imessage: true,
    rcs: false,
    reachable: true,
    autoReply: false,
  });
  const now = clock.now();
  const step = Math.floor((28 * 24 * 60 * MIN) / LONG_CHAT_MESSAGES);
  const first = now - MIN - (LONG_CHAT_MESSAGES - 1) * step;
  createContact(
    world,
    org,
    { firstName: 'Morgan', lastName: 'Reyes', phoneNumber: identifier },
    defaultOwner(org),
    {
      silent: true,
      at: first - MIN,
    },
  );
  const chat = createChat(world, org, {
    line,
    identifiers: [identifier],
    service: 'iMessage',
    at: first - MIN,
    silent: true,
  });
  const rng = createRandom('parley-bench-ui-long');
  let fromCustomer = true;
  let left = 1;
  for (let i = 0; i < LONG_CHAT_MESSAGES; i++) {
    if (left === 0) {
      fromCustomer = !fromCustomer;
      left = rng.int(1, 3);
    }
    left--;
    const at = first + i * step;
    const text = LONG_TEXTS[rng.int(0, LONG_TEXTS.length - 1)]!;
    if (fromCustomer) {
      const message = receiveMessage(world, org, chat, { from: identifier, text, at, silent: true });
      message.isRead = true;
      message.readAt = at + MIN;
    } else pastOutbound(world, org, chat, { text, at, readAt: at + MIN, line });
  }
  return {
    url: world.baseUrl,
    adminSecret,
    longChatId: chat.id,
    longChatName: 'Morgan Reyes',
    async stop() {
      clock.clear();
      await webhooks.stop();
      await app.close();
    },
  };
}

export async function control<T = unknown>(
  service: BenchService,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${service.url}/__sandbox${path}`, {
    method,
    headers: { 'x-sandbox-admin-secret': service.adminSecret, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
