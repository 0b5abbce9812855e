/**
 * Deterministic organization seeds. Every organization gets users (the first is the admin) and
 * lines numbered from its index, so lines never collide between organizations of one world; the
 * seed decides what else it holds.
 */
import type { Org } from '../domain/model.ts';
import type { World } from '../domain/world.ts';
import { addLine, addUsers } from './basics.ts';
import { seedBulk } from './bulk.ts';
import { seedDemo } from './demo.ts';
import { MAX_BULK_CUSTOMERS } from './numbers.ts';

export { isDemoOrg } from './demo.ts';

export type SeedSpec =
  { kind: 'demo' } | { kind: 'empty' } | { kind: 'bulk'; chats: number; messagesPerChat: number };

const MAX_BULK_MESSAGES = 5_000_000;

/** `demo`, `empty` or `bulk:<chats>x<messagesPerChat>` (e.g. `bulk:5000x50`). */
export function parseSeed(text: string): SeedSpec {
  const value = text.trim().toLowerCase();
  if (value === 'demo') return { kind: 'demo' };
  if (value === 'empty') return { kind: 'empty' };
  const bulk = /^bulk:(\d+)x(\d+)$/.exec(value);
  if (!bulk) {
    throw new Error(
      `unknown seed "${text}": expected demo, empty or bulk:<chats>x<messages per chat> (e.g. bulk:5000x50)`,
    );
  }
  const chats = Number(bulk[1]);
  const messagesPerChat = Number(bulk[2]);
  if (chats < 1 || chats > MAX_BULK_CUSTOMERS)
    throw new Error(`seed "${text}": chats must be between 1 and ${MAX_BULK_CUSTOMERS}`);
  if (messagesPerChat < 1) throw new Error(`seed "${text}": messages per chat must be at least 1`);
  if (chats * messagesPerChat > MAX_BULK_MESSAGES) {
    throw new Error(`seed "${text}": at most ${MAX_BULK_MESSAGES} messages in total`);
  }
  return { kind: 'bulk', chats, messagesPerChat };
}

/**
 * Fills a freshly created organization. `orgIndex` is its position among the world's organizations
 * (0, 1, …) and picks its phone numbers. Seeding is silent: no webhook events. Call it after
 * `world.baseUrl` is set, since attachment and recording URLs are built from it.
 */
export function seedOrg(world: World, org: Org, spec: SeedSpec, options: { orgIndex: number }): void {
  const { orgIndex } = options;
  if (spec.kind === 'demo') {
    seedDemo(world, org, orgIndex);
    return;
  }
  const users = addUsers(world, org, `org${orgIndex + 1}.example`, [
    { firstName: 'Alex', lastName: 'Rivera' },
    { firstName: 'Sam', lastName: 'Lee' },
  ]);
  const line = addLine(world, org, {
    orgIndex,
    slot: 0,
    userId: users[0]!.id,
    responseRate: 5,
    forwardingNumber: null,
  });
  if (spec.kind === 'bulk') seedBulk(world, org, line, spec.chats, spec.messagesPerChat);
}
