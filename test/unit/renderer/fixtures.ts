import type { Chat, Message } from '../../../shared/domain.ts';

let n = 0;

export function message(partial: Partial<Message> = {}): Message {
  n += 1;
  return {
    key: `m${n}`,
    id: n,
    chatId: 1,
    text: `message ${n}`,
    sentAt: Date.UTC(2026, 10, 20, 12, 0, 0),
    deliveredAt: null,
    state: 'delivered',
    editedAt: null,
    isRead: true,
    fromMe: false,
    sender: '+15105550100',
    senderName: null,
    attachments: [],
    reactions: [],
    error: null,
    ...partial,
  };
}

export function chat(partial: Partial<Chat> = {}): Chat {
  return {
    id: 1,
    lineId: 10,
    displayName: 'Ana Lima',
    service: 'iMessage',
    isGroup: false,
    messageCount: 3,
    handles: [
      {
        id: 1,
        identifier: '+14155550100',
        service: 'iMessage',
        joinedAt: null,
        isMe: true,
        contactName: null,
      },
      {
        id: 2,
        identifier: '+15105550100',
        service: 'iMessage',
        joinedAt: null,
        isMe: false,
        contactName: 'Ana Lima',
      },
    ],
    lastActivityAt: 1000,
    lastMessage: {
      text: 'hi',
      fromMe: false,
      senderName: 'Ana Lima',
      at: 1000,
      state: 'delivered',
      attachmentCount: 0,
    },
    unreadCount: 0,
    pinned: false,
    archived: false,
    markedUnread: false,
    typing: [],
    v3ChatId: null,
    ...partial,
  };
}

/** A local-time instant (day separators follow the agent's calendar). */
export function local(year: number, month: number, day: number, hour = 12, minute = 0): number {
  return new Date(year, month - 1, day, hour, minute).getTime();
}
