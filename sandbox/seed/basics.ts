/** What every seeded organization gets (users, lines) and the helper that writes outbound history. */
import { insertMessage, lineOf } from '../domain/chats.ts';
import { meHandle } from '../domain/handles.ts';
import {
  type Attachment,
  type Chat,
  type Line,
  type Message,
  type Org,
  plainMessageFields,
  type User,
} from '../domain/model.ts';
import type { World } from '../domain/world.ts';
import { linePhone } from './numbers.ts';

export function addUsers(
  world: World,
  org: Org,
  domain: string,
  people: ReadonlyArray<{ firstName: string; lastName: string }>,
): User[] {
  return people.map((person, i) => {
    const user: User = {
      id: world.nextId('user'),
      email: `${person.firstName}.${person.lastName}@${domain}`.toLowerCase(),
      firstName: person.firstName,
      lastName: person.lastName,
      admin: i === 0, // the first user is the organization's admin (default contact owner)
    };
    org.users.push(user);
    return user;
  });
}

export function addLine(
  world: World,
  org: Org,
  init: {
    orgIndex: number;
    slot: number;
    userId: number | null;
    responseRate: number;
    forwardingNumber: string | null;
  },
): Line {
  const line: Line = {
    id: world.nextId('line'),
    phoneNumber: linePhone(init.orgIndex, init.slot),
    forwardingNumber: init.forwardingNumber,
    responseRate: init.responseRate,
    userId: init.userId,
    paused: false,
    dailyChatQuota: world.config.dailyNewChatQuota,
    chatsCreated: { day: '', count: 0 },
    reputation: 'HEALTHY',
    reputationUpdatedAt: world.clock.now(),
  };
  org.lines.push(line);
  return line;
}

/**
 * An outbound message in the past. `sendMessage` always sends "now" and schedules delivery, so
 * seeded history is built here in the shape sendMessage would have left it once delivered.
 */
export function pastOutbound(
  world: World,
  org: Org,
  chat: Chat,
  init: { text: string; at: number; attachments?: Attachment[]; readAt: number | null; line?: Line },
): Message {
  const line = init.line ?? lineOf(org, chat);
  const deliveredAt = init.at + world.config.deliveryDelayMs[chat.service];
  const message: Message = {
    id: world.nextId('message'),
    chatId: chat.id,
    text: init.text,
    sentAt: init.at,
    deliveredAt,
    deliveryStatus: 'delivered',
    editedAt: null,
    isRead: init.readAt !== null,
    readAt: init.readAt,
    sentFrom: line.phoneNumber,
    handleId: meHandle(chat).id,
    attachments: init.attachments ?? [],
    reactions: [],
    idempotencyKey: null,
    outbound: true,
    ...plainMessageFields(),
    transmittedAt: init.at,
  };
  insertMessage(org, chat, message);
  return message;
}
