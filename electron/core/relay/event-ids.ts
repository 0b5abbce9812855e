/**
 * V3 ids of live events, allocated by the relay only. A V3 event names chats, messages, handles and
 * reactions by UUID; each store keys them by local integers (`remoteIds`). A desktop that met a
 * UUID first in an event would give it a local id of its own, which may differ from the relay's (and
 * every teammate's): a reaction or an edit sent later would then name another chat.
 *
 * So the relay, when it appends a V3 delivery to the event log, gives every UUID the event names its
 * own local id (allocating those it has not seen) and sends the pairs with the event in the
 * `Parley-Ids` header. A desktop binds them (untrusted: zod) in the transaction that takes the event,
 * before its applier looks any of them up, so it finds the relay's ids and allocates none.
 *
 * Why a header rather than the desktop asking the relay (`port-ids`) for each event: no round trip
 * per event on the fan-out's path, and a desktop catching up after a week replays the log at the
 * speed of the log, with the ids as they were given when the event was logged.
 *
 * `namedRemoteIds` must name every id the V3 applier (realtime/v3-event-applier.ts) looks up: it runs
 * the same mapping functions with a recorder, plus the handle ids the applier spells itself.
 */
import {
  type V3LocalIds,
  v3FailedEventToDomain,
  v3MessageEventToDomain,
  v3ReactionEventToDomain,
} from '../api/v3/domain-map.ts';
import type { V3WebhookEvent } from '../api/v3/webhook-events.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { RemoteIdKind } from '../store/remote-ids-repo.ts';
import { RemoteIdsSchema, type RemoteIds } from './protocol.ts';

/** The event log header carrying the relay's local ids of an event's V3 ids (JSON `RemoteIds`). */
export const EVENT_IDS_HEADER = 'Parley-Ids';

const KINDS = ['line', 'chat', 'handle', 'message', 'reaction'] as const satisfies readonly RemoteIdKind[];

export type NamedRemoteIds = Record<(typeof KINDS)[number], string[]>;

type EventHandle = { id?: string; handle: string } | null;

/** Every V3 id the applier will map to a local id for this event, by kind. */
export function namedRemoteIds(event: V3WebhookEvent): NamedRemoteIds {
  const named: Record<(typeof KINDS)[number], Set<string>> = {
    line: new Set(),
    chat: new Set(),
    handle: new Set(),
    message: new Set(),
    reaction: new Set(),
  };
  let fake = 0;
  const record = (kind: (typeof KINDS)[number]) => (id: string) => {
    named[kind].add(id);
    return ++fake;
  };
  const ids: V3LocalIds = {
    chat: record('chat'),
    message: record('message'),
    handle: record('handle'),
    line: record('line'),
    reaction: record('reaction'),
  };
  // The applier names a handle by its id, or by its chat and handle string when it has none.
  const handle = (chatId: string, h: EventHandle) => h && ids.handle(h.id ?? `${chatId}/${h.handle}`);
  switch (event.type) {
    case 'message.sent':
    case 'message.received':
    case 'message.delivered':
    case 'message.read': {
      const d = event.data;
      v3MessageEventToDomain(event.type, d, ids);
      const owner = (d.chat?.owner_handle as EventHandle)?.handle;
      if (owner) handle(d.chatId, { handle: owner });
      if (d.direction === 'inbound') handle(d.chatId, d.sender_handle as EventHandle);
      break;
    }
    case 'message.failed':
      v3FailedEventToDomain(event.data, ids);
      break;
    case 'message.edited':
      ids.message(event.data.id);
      if (event.data.chat) ids.chat(event.data.chat.id);
      break;
    case 'reaction.added':
    case 'reaction.removed':
      v3ReactionEventToDomain(event.data, ids);
      break;
    case 'participant.added':
    case 'participant.removed':
      ids.chat(event.data.chat_id);
      handle(event.data.chat_id, event.data.handle as EventHandle);
      break;
    case 'chat.created': {
      const d = event.data;
      const v3ChatId = (d.chat_id ?? d.id) as string | undefined;
      if (v3ChatId === undefined) break;
      ids.chat(v3ChatId);
      for (const h of d.handles) if (h.status === 'active') handle(v3ChatId, h as EventHandle);
      break;
    }
    case 'chat.typing_indicator.started':
    case 'chat.typing_indicator.stopped':
    case 'chat.group_name_updated':
      ids.chat(event.data.chat_id);
      break;
    case 'phone_number.status_updated':
      ids.line(event.data.phone_number);
      break;
    default:
      break;
  }
  return Object.fromEntries(KINDS.map((kind) => [kind, [...named[kind]]])) as NamedRemoteIds;
}

/** The relay: its local ids for what the event names, those it has not seen given the next free ones. */
export function allocateEventIds(store: LocalStore, event: V3WebhookEvent): RemoteIds {
  const named = namedRemoteIds(event);
  const remote = store.remoteIds;
  // Messages and reactions are kept by chat (remote-ids-repo.ts): named with the event's chat they
  // are found where the relay stored them; without one, looked for among every chat's.
  const [v3ChatId] = named.chat.length === 1 ? named.chat : [];
  return store.transaction(() => {
    const ids: RemoteIds = {};
    for (const kind of KINDS) {
      if (named[kind].length === 0) continue;
      ids[kind] =
        kind === 'line'
          ? named.line.map((phone) => [phone, store.lines.byNumber(phone)?.id ?? remote.line(phone)])
          : kind === 'message'
            ? named.message.map((id) => [id, remote.message(id, v3ChatId)])
            : kind === 'reaction'
              ? named.reaction.map((key) => [key, remote.reaction(key, v3ChatId)])
              : [...remote.many(kind, named[kind])];
    }
    return ids;
  });
}

/** The ids a log message carries, or why they cannot be used (untrusted input). */
export function parseEventIds(header: string | undefined): RemoteIds | undefined {
  if (!header) return undefined;
  try {
    const parsed = RemoteIdsSchema.safeParse(JSON.parse(header));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Names each V3 id by the relay's local id, as the relay does (only what differs is written). */
export function bindRelayIds(store: LocalStore, ids: RemoteIds): void {
  const remote = store.remoteIds;
  store.transaction(() => {
    for (const kind of KINDS)
      for (const [remoteId, localId] of ids[kind] ?? [])
        if (remote.find(kind, remoteId) !== localId) remote.bind(kind, remoteId, localId);
  });
}
