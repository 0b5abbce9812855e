/**
 * The relay's store, read back as the messaging port's records (what a direct adapter gives a
 * desktop's sync engine), with the V3 ids those records stand for: a desktop binds each to the same
 * local id in its own `remoteIds`, so a V3 event naming a chat or message by UUID finds, on every
 * desktop, the id the relay gave it.
 */
import type { Chat, Line, Message } from '../../shared/domain.ts';
import type { LocalStore, MessageRecord } from '../core/relay-host.ts';
import type { ListedChat, RemoteIds } from '../core/relay-host.ts';

export function lineRecords(store: LocalStore, lines: readonly Line[]): Line[] {
  return lines.map((line) => ({
    id: line.id,
    phoneNumber: line.phoneNumber,
    forwardingNumber: line.forwardingNumber,
    responseRate: line.responseRate,
    userName: line.userName,
    userEmail: line.userEmail,
    ...(store.apiVersion === 'v3' && line.v3Id ? { v3Id: line.v3Id } : {}),
    ...(store.apiVersion === 'v3' && line.reputation !== undefined ? { reputation: line.reputation } : {}),
  }));
}

/**
 * A chat as listed. Its revision is when the relay's stored messages of it last changed: a desktop
 * re-reads a chat's messages exactly when the relay has something new for it.
 */
export function chatRecords(store: LocalStore, chats: readonly Chat[]): ListedChat[] {
  const changed = store.messages.lastChanged(chats.map((c) => c.id));
  return chats.map((chat) => {
    const revision = changed.get(chat.id);
    return {
      id: chat.id,
      lineId: chat.lineId,
      displayName: chat.displayName,
      service: chat.service,
      isGroup: chat.isGroup,
      // V2: the service's count; V3's stored count is not the service's (it has none).
      ...(store.apiVersion === 'v2' && chat.messageCount !== null ? { messageCount: chat.messageCount } : {}),
      handles: chat.handles.map((h) => ({
        id: h.id,
        identifier: h.identifier,
        service: h.service,
        joinedAt: h.joinedAt,
        isMe: h.isMe,
      })),
      ...(chat.v3ChatId === null ? {} : { v3ChatId: chat.v3ChatId }),
      ...(chat.health ? { health: chat.health } : {}),
      ...(revision === undefined ? {} : { revision }),
    };
  });
}

/** Stored messages (not the relay's own unsent ones) as records, newest first as given. */
export function messageRecords(store: LocalStore, messages: readonly Message[]): MessageRecord[] {
  const accepted = messages.filter((m): m is Message & { id: number } => m.id !== null);
  const handles = store.messages.handleIds(accepted.map((m) => m.id));
  const v3 = store.apiVersion === 'v3';
  return accepted.map((m) => ({
    id: m.id,
    chatId: m.chatId,
    text: m.text,
    sentAt: m.sentAt,
    deliveredAt: m.deliveredAt,
    deliveryStatus: m.state,
    // V3's records name an edit only when there was one.
    ...(v3 && m.editedAt === null ? {} : { editedAt: m.editedAt }),
    isRead: m.isRead,
    fromMe: m.fromMe,
    sender: m.sender,
    ...(handles.has(m.id) ? { handleId: handles.get(m.id) } : {}),
    attachments: m.attachments.map((a) => ({ ...a })),
    reactions: m.reactions.map((r) => ({
      id: r.id,
      messageId: r.messageId,
      kind: r.kind,
      fromMe: r.fromMe,
      sender: r.from,
      at: r.at,
      ...(r.partIndex === undefined ? {} : { partIndex: r.partIndex }),
      ...(r.customEmoji === undefined ? {} : { customEmoji: r.customEmoji }),
    })),
    ...(m.failure ? { failure: m.failure } : {}),
    ...(v3
      ? {
          replyTo: m.replyTo ?? null,
          effect: m.effect ?? null,
          link: m.parts?.find((p) => p.type === 'link')?.url ?? null,
        }
      : {}),
  }));
}

/** The V3 ids behind the local ids these records name (nothing on a V2 organization). */
export function remoteIdsOf(
  store: LocalStore,
  named: { lines?: readonly Line[]; chats?: readonly ListedChat[]; messages?: readonly MessageRecord[] },
): RemoteIds | undefined {
  if (store.apiVersion !== 'v3') return undefined;
  const ids = store.remoteIds;
  const pairs = (
    kind: 'chat' | 'message' | 'handle' | 'reaction',
    local: number[],
  ): Array<[string, number]> =>
    [...ids.remoteIdsOf(kind, [...new Set(local)])].map(([localId, remote]) => [remote, localId]);
  const chats = named.chats ?? [];
  const messages = named.messages ?? [];
  return {
    line: (named.lines ?? []).map((l) => [l.phoneNumber, l.id]),
    chat: pairs('chat', [...chats.map((c) => c.id), ...messages.map((m) => m.chatId)]),
    handle: pairs(
      'handle',
      chats.flatMap((c) => (c.handles ?? []).map((h) => h.id)),
    ),
    message: pairs(
      'message',
      messages.map((m) => m.id),
    ),
    reaction: pairs(
      'reaction',
      messages.flatMap((m) => (m.reactions ?? []).map((r) => r.id)),
    ),
  };
}
