/**
 * The store announces a change with the changed rows: the rows are read once, right after the commit
 * that announced them (so they are what was committed, merged with what was there), and every
 * listener — the renderer through the host, the scheduler, the notifier — gets them, instead of each
 * asking back by id. A change too big for one event (a sync page) goes by id alone, and so does one
 * whose read fails: a listener then fetches, as it always can.
 */
import {
  EVENT_CHATS_MAX,
  EVENT_MESSAGES_MAX,
  type ChatsChanged,
  type MessagesChanged,
} from '../../../shared/contract/events.ts';
import { createLogger } from '../log/logger.ts';
import type { ChatsRepo } from './chats-repo.ts';
import type { StoreEventName, StoreEvents } from './events.ts';
import type { MessageReads } from './message-reads.ts';
import type { SnoozesRepo } from './snoozes-repo.ts';

const log = createLogger('store-events');

export interface ChangedRowSources {
  chats: Pick<ChatsRepo, 'byIds'>;
  messages: Pick<MessageReads, 'byKeys'>;
  snoozes: Pick<SnoozesRepo, 'get' | 'woken'>;
}

export function withChangedRows<K extends StoreEventName>(
  sources: ChangedRowSources,
  name: K,
  payload: StoreEvents[K],
): StoreEvents[K] {
  try {
    if (name === 'messages.changed')
      return withMessages(sources, payload as MessagesChanged) as StoreEvents[K];
    if (name === 'chats.changed') return withChats(sources, payload as ChatsChanged) as StoreEvents[K];
  } catch (error) {
    log.warn('change announced without its rows', { event: name, error: String(error) });
  }
  return payload;
}

function withMessages(sources: ChangedRowSources, payload: MessagesChanged): MessagesChanged {
  if (payload.keys.length === 0 || payload.keys.length > EVENT_MESSAGES_MAX) return payload;
  const messages = sources.messages.byKeys(payload.keys).filter((m) => m.chatId === payload.chatId);
  return { ...payload, messages };
}

function withChats(sources: ChangedRowSources, payload: ChatsChanged): ChatsChanged {
  if (payload.chatIds.length === 0 || payload.chatIds.length > EVENT_CHATS_MAX) return payload;
  const chats = sources.chats.byIds(payload.chatIds);
  const snoozes = payload.chatIds.flatMap((id) => sources.snoozes.get(id) ?? []);
  const snoozed = snoozes.filter((s) => s.wokeAt === null).map((s) => s.chatId);
  const woken = sources.snoozes.woken().map((s) => s.chatId);
  return { ...payload, chats, snoozes, snoozed, woken };
}
