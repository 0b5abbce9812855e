/**
 * The store announces changes by id; the renderer gets the changes themselves, read right after the
 * commit that announced them, so it patches its state instead of asking back for every event. A
 * change too big for one event (a sync page) goes by id as the store said it, and so does any event
 * whose read fails: the renderer then fetches, as it always can.
 */
import {
  EVENT_CHATS_MAX,
  EVENT_MESSAGES_MAX,
  type ChatsChanged,
  type MessagesChanged,
} from '../../../shared/contract/events.ts';
import { createLogger } from '../log/logger.ts';
import type { StoreEventName, StoreEvents } from '../store/events.ts';
import type { LocalStore } from '../store/local-store.ts';

const log = createLogger('events');

export function withChanges<K extends StoreEventName>(
  store: LocalStore,
  name: K,
  payload: StoreEvents[K],
): StoreEvents[K] {
  try {
    if (name === 'messages.changed') return withMessages(store, payload as MessagesChanged) as StoreEvents[K];
    if (name === 'chats.changed') return withChats(store, payload as ChatsChanged) as StoreEvents[K];
  } catch (error) {
    log.warn('event sent without its changes', { event: name, error: String(error) });
  }
  return payload;
}

function withMessages(store: LocalStore, payload: MessagesChanged): MessagesChanged {
  if (payload.keys.length === 0 || payload.keys.length > EVENT_MESSAGES_MAX) return payload;
  const messages = store.messages.byKeys(payload.keys).filter((m) => m.chatId === payload.chatId);
  return { ...payload, messages };
}

function withChats(store: LocalStore, payload: ChatsChanged): ChatsChanged {
  if (payload.chatIds.length === 0 || payload.chatIds.length > EVENT_CHATS_MAX) return payload;
  const chats = store.chats.byIds(payload.chatIds);
  const snoozed = payload.chatIds.filter((id) => {
    const snooze = store.snoozes.get(id);
    return snooze !== undefined && snooze.wokeAt === null;
  });
  const woken = store.snoozes.woken().map((s) => s.chatId);
  return { ...payload, chats, snoozed, woken };
}
