import {
  type Attachment,
  type Chat,
  type Handle,
  type Line,
  type Message,
  type Org,
  plainMessageFields,
  type Service,
  type StoredPart,
} from './model.ts';
import { emitChatCreatedV3, emitFailedV3, emitMessageV3, emitTypingV3 } from './v3/events.ts';
import { SEND_FAILURES, UNREACHABLE_CODE } from './v3/failures.ts';
import type { World } from './world.ts';
import { chatCreatedData, messageEventData, typingData } from './webhook-data.ts';
import { utcDay } from './time.ts';
import { customerHandles, meHandle } from './handles.ts';

/** The participant set that identifies a chat on a line (find-or-create key). */
export function participantKey(identifiers: readonly string[]): string {
  return [...new Set(identifiers)].sort().join('|');
}

export function lineOf(org: Org, chat: Chat): Line {
  const line = org.lines.find((l) => l.id === chat.lineId);
  if (!line) throw new Error(`chat ${chat.id} has no line`);
  return line;
}

export function findChat(org: Org, line: Line, identifiers: readonly string[]): Chat | undefined {
  const key = participantKey(identifiers);
  for (const chat of org.chats.values()) {
    if (chat.lineId !== line.id) continue;
    if (participantKey(customerHandles(chat).map((h) => h.identifier)) === key) return chat;
  }
  return undefined;
}

/** iMessage when every recipient can take it, else RCS when every one can, else SMS. */
export function chooseService(world: World, identifiers: readonly string[]): Service {
  const personas = identifiers.map((id) => world.persona(id));
  if (personas.every((p) => p.imessage)) return 'iMessage';
  if (personas.every((p) => p.rcs)) return 'RCS';
  return 'SMS';
}

export function createChat(
  world: World,
  org: Org,
  init: {
    line: Line;
    identifiers: readonly string[];
    displayName?: string | null;
    service?: Service;
    at?: number;
    traceId?: string | null;
    /** Seeded history is not announced by webhooks. */
    silent?: boolean;
    v3Native?: boolean;
  },
): Chat {
  const at = init.at ?? world.clock.now();
  const identifiers = [...new Set(init.identifiers)];
  const service = init.service ?? chooseService(world, identifiers);
  const handle = (identifier: string, isMe: boolean): Handle => ({
    id: world.nextId('handle'),
    identifier,
    service,
    joinedAt: at,
    isMe,
    departedAt: null,
  });
  const chat: Chat = {
    id: world.nextId('chat'),
    lineId: init.line.id,
    displayName: init.displayName?.trim() ? init.displayName.trim() : null,
    service,
    group: identifiers.length > 1,
    handles: [handle(init.line.phoneNumber, true), ...identifiers.map((id) => handle(id, false))],
    messages: [],
    createdAt: at,
    lastActivityAt: at,
    v3Native: init.v3Native ?? false,
    health: { status: 'HEALTHY', updatedAt: at },
    left: false,
    orgTypingUntil: null,
    customerTyping: new Map(),
  };
  org.chats.set(chat.id, chat);
  if (!init.silent) {
    world.emit(org, 'chat.created', chatCreatedData(org, chat), init.traceId ?? null);
    emitChatCreatedV3(world, org, chat, init.traceId ?? null);
  }
  return chat;
}

/** Inserts keeping (sentAt, id) order; appends in the common case. */
export function insertMessage(org: Org, chat: Chat, message: Message): void {
  const list = chat.messages;
  let i = list.length;
  while (i > 0) {
    const prev = list[i - 1] as Message;
    if (prev.sentAt < message.sentAt || (prev.sentAt === message.sentAt && prev.id < message.id)) break;
    i--;
  }
  list.splice(i, 0, message);
  org.messageIndex.set(message.id, chat.id);
  if (message.sentAt > chat.lastActivityAt) chat.lastActivityAt = message.sentAt;
}

export function takeDailyChatQuota(world: World, line: Line): boolean {
  const day = utcDay(world.clock.now());
  if (line.chatsCreated.day !== day) line.chatsCreated = { day, count: 0 };
  if (line.chatsCreated.count >= line.dailyChatQuota) return false;
  line.chatsCreated.count++;
  return true;
}

export interface SendInput {
  text: string;
  attachments: Attachment[];
  idempotencyKey: string | null;
  traceId?: string | null;
  /** Create chat over a spent daily quota: the message is stored but never delivered. */
  overQuota?: boolean;
  /** V3 sends: the parts as given, and what V2 cannot express. */
  v3?: Pick<Message, 'replyTo' | 'effect' | 'preferredService'> & { parts: StoredPart[] };
}

/** Sends from the organization's line. A reused idempotency key returns the stored message. */
export function sendMessage(
  world: World,
  org: Org,
  chat: Chat,
  input: SendInput,
): { message: Message; replay: boolean } {
  if (input.idempotencyKey) {
    const used = org.idempotency.get(input.idempotencyKey);
    const stored = used && (findMessage(org, used.messageId) ?? org.deletedMessages.get(used.messageId));
    if (stored) return { message: stored, replay: true };
  }
  const now = world.clock.now();
  const line = lineOf(org, chat);
  const me = meHandle(chat);
  const message: Message = {
    id: world.nextId('message'),
    chatId: chat.id,
    text: input.text,
    sentAt: now,
    deliveredAt: null,
    deliveryStatus: input.overQuota ? 'rate_limit_exceeded' : line.paused ? 'paused' : 'pending',
    editedAt: null,
    isRead: false,
    readAt: null,
    sentFrom: line.phoneNumber,
    handleId: me.id,
    attachments: input.attachments,
    reactions: [],
    idempotencyKey: input.idempotencyKey,
    outbound: true,
    ...plainMessageFields(),
    ...input.v3,
    traceId: input.traceId ?? null,
  };
  insertMessage(org, chat, message);
  if (input.idempotencyKey)
    org.idempotency.set(input.idempotencyKey, { chatId: chat.id, messageId: message.id });
  chat.orgTypingUntil = null; // sending ends the organization's typing indicator
  if (message.deliveryStatus === 'pending') scheduleDelivery(world, org, chat, message);
  world.emit(org, 'message.sent', messageEventData(world, org, chat, message), input.traceId ?? null);
  for (const observer of world.observers) observer.outboundMessage?.(org, chat.id, message);
  return { message, replay: false };
}

/**
 * pending → sent (V3) halfway through the service's delay → delivered at its end. Unreachable
 * customers make it fail at the end (V2 service_unavailable, V3 3007); an injected failure code
 * (next-send or per-customer, control API) makes it fail instead of being sent.
 */
export function scheduleDelivery(world: World, org: Org, chat: Chat, message: Message): void {
  const delay = world.config.deliveryDelayMs[chat.service];
  const recipients = customerHandles(chat).map((h) => world.persona(h.identifier));
  const injected =
    org.nextSendFailures.shift() ?? recipients.find((p) => (p.failCode ?? null) !== null)?.failCode;
  const fail = (code: number): void => {
    message.deliveryStatus = 'service_unavailable';
    message.failure = { code, reason: SEND_FAILURES[code] ?? 'Delivery failed', at: world.clock.now() };
    emitFailedV3(world, org, chat, message);
  };
  world.clock.after(delay / 2, () => {
    if (message.deliveryStatus !== 'pending' || !org.messageIndex.has(message.id)) return;
    if (injected) return fail(injected);
    message.transmittedAt = world.clock.now();
    emitMessageV3(world, org, chat, message, 'message.sent');
  });
  world.clock.after(delay, () => {
    if (message.deliveryStatus !== 'pending' || message.failure) return;
    if (recipients.length > 0 && recipients.every((p) => !p.reachable)) return fail(UNREACHABLE_CODE);
    message.deliveryStatus = 'delivered';
    message.deliveredAt = world.clock.now();
    if (chat.service !== 'SMS' && org.messageIndex.has(message.id))
      emitMessageV3(world, org, chat, message, 'message.delivered');
  });
}

/** A line came back from pause: its paused messages resume delivery. */
export function resumeLine(world: World, org: Org, line: Line): void {
  for (const chat of org.chats.values()) {
    if (chat.lineId !== line.id) continue;
    for (const message of chat.messages) {
      if (message.deliveryStatus !== 'paused') continue;
      message.deliveryStatus = 'pending';
      scheduleDelivery(world, org, chat, message);
      for (const observer of world.observers) observer.outboundMessage?.(org, chat.id, message);
    }
  }
}

export function receiveMessage(
  world: World,
  org: Org,
  chat: Chat,
  input: { from: string; text: string; attachments?: Attachment[]; at?: number; silent?: boolean },
): Message {
  const handle = chat.handles.find((h) => h.identifier === input.from && !h.isMe);
  if (!handle) throw new Error(`${input.from} is not in chat ${chat.id}`);
  if (!input.silent) setCustomerTyping(world, org, chat, input.from, false);
  const at = input.at ?? world.clock.now();
  const message: Message = {
    id: world.nextId('message'),
    chatId: chat.id,
    text: input.text,
    sentAt: at,
    deliveredAt: at,
    deliveryStatus: 'delivered',
    editedAt: null,
    isRead: false,
    readAt: null,
    sentFrom: input.from,
    handleId: handle.id,
    attachments: input.attachments ?? [],
    reactions: [],
    idempotencyKey: null,
    outbound: false,
    ...plainMessageFields(),
    transmittedAt: at,
  };
  insertMessage(org, chat, message);
  if (!input.silent) {
    world.emit(org, 'message.received', messageEventData(world, org, chat, message));
    emitMessageV3(world, org, chat, message, 'message.received');
  }
  return message;
}

/** Marks read; emits `message.read` per message that changed. */
export function markRead(world: World, org: Org, chat: Chat, messages: readonly Message[]): void {
  const now = world.clock.now();
  for (const message of messages) {
    if (message.isRead) continue;
    message.isRead = true;
    message.readAt = now;
    world.emit(org, 'message.read', {
      id: String(message.id),
      chat_id: String(chat.id),
      read_at: new Date(now).toISOString(),
    });
    if (message.outbound) emitMessageV3(world, org, chat, message, 'message.read');
  }
}

export function markChatRead(world: World, org: Org, chat: Chat): void {
  markRead(
    world,
    org,
    chat,
    chat.messages.filter((m) => !m.outbound),
  );
}

/** A customer's typing indicator: shown until they send, stop, or 60 s pass. */
export function setCustomerTyping(
  world: World,
  org: Org,
  chat: Chat,
  identifier: string,
  display: boolean,
): void {
  const cancelExpiry = chat.customerTyping.get(identifier);
  if (!display) {
    if (!cancelExpiry) return;
    cancelExpiry();
    chat.customerTyping.delete(identifier);
    world.emit(org, 'typing_indicator.removed', typingData(world, org, chat, false));
    emitTypingV3(world, org, chat, false);
    return;
  }
  cancelExpiry?.();
  const cancel = world.clock.after(world.config.typingTimeoutMs, () => {
    chat.customerTyping.delete(identifier);
    world.emit(org, 'typing_indicator.removed', typingData(world, org, chat, false));
    emitTypingV3(world, org, chat, false);
  });
  const wasTyping = Boolean(cancelExpiry);
  chat.customerTyping.set(identifier, cancel);
  if (!wasTyping) {
    world.emit(org, 'typing_indicator.received', typingData(world, org, chat, true));
    emitTypingV3(world, org, chat, true);
  }
}

export function startOrgTyping(world: World, chat: Chat): void {
  chat.orgTypingUntil = world.clock.now() + world.config.typingTimeoutMs;
}

export function orgTyping(world: World, chat: Chat): boolean {
  return chat.orgTypingUntil !== null && chat.orgTypingUntil > world.clock.now();
}

export function findMessage(org: Org, messageId: number): Message | undefined {
  const chatId = org.messageIndex.get(messageId);
  const chat = chatId === undefined ? undefined : org.chats.get(chatId);
  return chat?.messages.find((m) => m.id === messageId);
}

export function removeMessage(org: Org, chat: Chat, message: Message): void {
  chat.messages = chat.messages.filter((m) => m.id !== message.id);
  org.messageIndex.delete(message.id);
  org.deletedMessages.set(message.id, message);
}
