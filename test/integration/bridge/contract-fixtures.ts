/** What contract-calls.ts's calls act on, picked in the demo's store before the first call. */
import type { AppCore } from '../../../electron/core/app/app-core.ts';
import { inspectStore, type StoreInspector } from '../store-inspector.ts';

export interface Fixtures {
  chatId: number;
  lineId: number;
  inbound: { key: string; word: string };
  /** Two messages we sent in that chat (one is edited and reacted to, the other deleted). */
  mine: Array<{ key: string; id: number }>;
  attachment: { id: string; filename: string };
  contactWithChats: number;
}

/** Picks, in the store, what the calls act on: an iMessage chat with two of our sent messages, etc. */
export function fixtures(core: AppCore): Fixtures {
  return inspectStore(core.session.store, (db) => fixturesIn(db));
}

function fixturesIn(db: StoreInspector): Fixtures {
  const chat = db.get<{ id: number; line_id: number }>(
    `SELECT c.id, c.line_id FROM chats c WHERE c.service = 'iMessage' AND c.is_group = 0
       AND (SELECT COUNT(*) FROM messages m WHERE m.chat_id = c.id AND m.from_me = 1 AND m.id IS NOT NULL) >= 2
       AND EXISTS (SELECT 1 FROM messages m WHERE m.chat_id = c.id AND m.from_me = 0)
     ORDER BY c.id LIMIT 1`,
  );
  if (!chat) throw new Error('the demo has no iMessage chat with two sent messages');
  const mine = db.all<{ key: string; id: number }>(
    'SELECT key, id FROM messages WHERE chat_id = ? AND from_me = 1 AND id IS NOT NULL ORDER BY sent_at LIMIT 2',
    chat.id,
  );
  const inbound = db.get<{ key: string; text: string }>(
    "SELECT key, text FROM messages WHERE chat_id = ? AND from_me = 0 AND text <> '' ORDER BY sent_at LIMIT 1",
    chat.id,
  );
  const word = /[A-Za-z]{5,}/.exec(inbound?.text ?? '')?.[0];
  const attachment = db.get<{ id: string; filename: string }>(
    "SELECT id, filename FROM attachments WHERE url LIKE 'http%' AND mime_type LIKE 'image/%' ORDER BY id LIMIT 1",
  );
  const contact = db.get<{ id: number }>(
    `SELECT c.id FROM contacts c JOIN handles h ON h.identifier = c.phone_number AND h.is_me = 0
     ORDER BY c.id LIMIT 1`,
  );
  if (!inbound || !word || mine.length < 2 || !attachment || !contact)
    throw new Error('the demo data lacks a fixture the bridge calls need');
  return {
    chatId: chat.id,
    lineId: chat.line_id,
    inbound: { key: inbound.key, word },
    mine: mine.map((m) => ({ key: m.key, id: m.id })),
    attachment,
    contactWithChats: contact.id,
  };
}
