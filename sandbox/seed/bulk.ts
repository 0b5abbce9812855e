/**
 * Bulk seeds for performance work: one line with many direct chats of alternating messages. Built
 * in time order per chat, so every insert appends (250k messages seed in well under a few seconds).
 */
import { createChat, receiveMessage } from '../domain/chats.ts';
import { createContact, defaultOwner } from '../domain/contacts.ts';
import type { Line, Org, Service } from '../domain/model.ts';
import { SERVICES } from '../domain/model.ts';
import type { World } from '../domain/world.ts';
import { pastOutbound } from './basics.ts';
import { bulkCustomerPhone } from './numbers.ts';

const MIN = 60_000;
/** Chats' latest activity spreads over this window; chat 0 is the most recent. */
const WINDOW = 90 * 24 * 60 * MIN;
const STEP = 7 * MIN;
/** Contacts only for the first handles: enough to exercise names, cheap at any size. */
const MAX_CONTACTS = 500;

const INBOUND = [
  'Hi, is my order still on track?',
  'Thanks!',
  'Can we move it to tomorrow afternoon?',
  'What time will you arrive?',
  'Got it 👍',
  'Is there a charge for that?',
  'Sounds good',
  'Can you resend the details?',
] as const;
const OUTBOUND = [
  'Hi! Yes, everything is on schedule.',
  "You're welcome — let us know if you need anything else.",
  'Sure, I have 2:00pm or 4:30pm available tomorrow.',
  'We should be there between 10 and noon.',
  'Great, see you then.',
  'No extra charge for that.',
  'Perfect, thanks for confirming.',
  'Of course, sending them over now.',
] as const;

export function seedBulk(world: World, org: Org, line: Line, chats: number, messagesPerChat: number): void {
  const now = world.clock.now();
  const owner = defaultOwner(org);
  for (let i = 0; i < chats; i++) {
    const identifier = bulkCustomerPhone(i);
    const service: Service = SERVICES[i % SERVICES.length]!;
    world.personas.set(identifier, {
      failCode: null,
      identifier,
      firstName: i < MAX_CONTACTS ? `Customer` : '',
      lastName: i < MAX_CONTACTS ? String(i + 1) : '',
      imessage: service === 'iMessage',
      rcs: service === 'RCS',
      reachable: true,
      autoReply: true,
    });
    const lastAt = now - MIN - Math.floor((i * WINDOW) / chats);
    const firstAt = lastAt - (messagesPerChat - 1) * STEP;
    if (i < MAX_CONTACTS) {
      createContact(
        world,
        org,
        { firstName: 'Customer', lastName: String(i + 1), phoneNumber: identifier },
        owner,
        { silent: true, at: firstAt },
      );
    }
    const chat = createChat(world, org, {
      line,
      identifiers: [identifier],
      service,
      at: firstAt - MIN,
      silent: true,
    });
    // Messages alternate; every tenth chat ends with an unread message from the customer, the
    // others with the organization's answer.
    const unreadLast = i % 10 === 0;
    for (let j = 0; j < messagesPerChat; j++) {
      const at = firstAt + j * STEP;
      if ((messagesPerChat - 1 - j) % 2 === (unreadLast ? 0 : 1)) {
        const message = receiveMessage(world, org, chat, {
          from: identifier,
          text: INBOUND[(i + j) % INBOUND.length]!,
          at,
          silent: true,
        });
        const unread = unreadLast && j === messagesPerChat - 1;
        message.isRead = !unread;
        message.readAt = unread ? null : at + MIN;
      } else {
        const text = OUTBOUND[(i + j) % OUTBOUND.length]!;
        pastOutbound(world, org, chat, { text, at, readAt: service === 'SMS' ? null : at + 2 * MIN, line });
      }
    }
  }
}
