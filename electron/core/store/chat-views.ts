/**
 * Stored chat rows as the app shows them (`Chat`): their handles with contact names, the last
 * message's preview, typing, and on a V3 workspace the health and the count of stored messages.
 * The reading half of ChatsRepo (chats-repo.ts), kept apart so the repository holds the writes and
 * the queries, and this the one place a row becomes what the inbox draws.
 */
import type { Chat, ChatHealth, Handle, MessagePreview } from '../../../shared/domain.ts';
import type { Database } from './database.ts';
import { type ChatRow, type HandleRow, type MessageRow, placeholders } from './rows.ts';

/** What a row needs from outside the chats table to become a `Chat`. */
export interface ChatViewSources {
  /** Who is typing in a chat now. */
  typing: (chatId: number) => string[];
  /** Contact names by identifier. */
  nameFor: (identifiers: string[]) => Map<string, string>;
  /** A V3 workspace's chats say so, and carry their health. */
  v3: boolean;
}

/** A chat's health as the service last stated it (V3), or null. */
export function healthOf(row: ChatRow): ChatHealth | null {
  return row.health_status === null
    ? null
    : { status: row.health_status, docUrl: row.health_doc_url, updatedAt: row.health_updated_at };
}

/** The rows as `Chat`s, in their order, with a few reads for all of them at once. */
export function chatViews(db: Database, rows: ChatRow[], sources: ChatViewSources): Chat[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const handles = db.all<HandleRow>(
    `SELECT * FROM handles WHERE chat_id IN (${placeholders(ids.length)}) ORDER BY is_me DESC, id`,
    ...ids,
  );
  const lastKeys = rows.map((r) => r.last_message_key).filter((k): k is string => k !== null);
  const lastRows = lastKeys.length
    ? db.all<MessageRow & { attachment_count: number }>(
        `SELECT m.*, (SELECT COUNT(*) FROM attachments a WHERE a.message_key = m.key) AS attachment_count
         FROM messages m WHERE m.key IN (${placeholders(lastKeys.length)})`,
        ...lastKeys,
      )
    : [];
  const names = sources.nameFor([...new Set(handles.map((h) => h.identifier))]);
  // V3 counts no messages: a chat's count is what is stored, once its whole history is (else none).
  const complete = rows.filter((r) => r.history_complete === 1);
  const stored = sources.v3 ? storedCounts(db, complete) : undefined;
  const lastByKey = new Map(lastRows.map((m) => [m.key, m]));
  const handlesByChat = new Map<number, Handle[]>();
  for (const h of handles) {
    const list = handlesByChat.get(h.chat_id) ?? [];
    list.push({
      id: h.id,
      identifier: h.identifier,
      service: h.service,
      joinedAt: h.joined_at,
      isMe: h.is_me === 1,
      contactName: names.get(h.identifier) ?? null,
    });
    handlesByChat.set(h.chat_id, list);
  }
  return rows.map((row) => {
    const last = row.last_message_key ? lastByKey.get(row.last_message_key) : undefined;
    const preview: MessagePreview | null = last
      ? {
          text: last.text,
          fromMe: last.from_me === 1,
          senderName: last.from_me ? null : (names.get(last.sender) ?? last.sender),
          at: last.sent_at,
          state: last.state,
          attachmentCount: last.attachment_count,
        }
      : null;
    return {
      id: row.id,
      lineId: row.line_id,
      displayName: row.display_name,
      service: row.service,
      isGroup: row.is_group === 1,
      messageCount: stored ? (stored.get(row.id) ?? null) : row.message_count,
      handles: handlesByChat.get(row.id) ?? [],
      lastActivityAt: row.last_activity_at,
      lastMessage: preview,
      unreadCount: row.unread_count,
      pinned: row.pinned === 1,
      archived: row.archived === 1,
      markedUnread: row.marked_unread === 1,
      typing: sources.typing(row.id),
      v3ChatId: row.v3_chat_id,
      ...(sources.v3 ? { apiVersion: 'v3' as const, health: healthOf(row) } : {}),
    };
  });
}

/** How many of each chat's messages the service accepted are stored (none deleted). */
function storedCounts(db: Database, rows: readonly ChatRow[]): Map<number, number> {
  const counts = new Map(rows.map((r) => [r.id, 0]));
  if (rows.length === 0) return counts;
  const found = db.all<{ chat_id: number; n: number }>(
    `SELECT chat_id, COUNT(*) AS n FROM messages WHERE chat_id IN (${placeholders(rows.length)})
     AND deleted = 0 AND id IS NOT NULL GROUP BY chat_id`,
    ...rows.map((r) => r.id),
  );
  for (const { chat_id, n } of found) counts.set(chat_id, n);
  return counts;
}
