/**
 * Presence as the team sees it, computed from the presence bucket's entries (pure). Each desktop
 * heartbeats its entries; an entry not refreshed within `staleAfterMs` (by the server's timestamp
 * on the entry) is dropped, because nats-server 2.9 expires keys without telling the watchers: a
 * killed desktop's avatars must still disappear.
 */
import { AVAILABILITIES, type Availability, type ChatActivity } from './wire.ts';

/** One live entry of the presence bucket, as the watcher keeps it. */
export interface PresenceRecord {
  key: string;
  /** The validated value (PresenceStatus or PresenceChat). */
  value: { availability: Availability } | { activity: ChatActivity };
  /** When the server stored it (ms). */
  updatedAt: number;
}

export interface TeamPresence {
  /** Each agent with a live status entry. */
  agents: Map<string, Availability>;
  /** Per chat: who is there, doing what. */
  chats: Map<number, Array<{ agentId: string; activity: ChatActivity }>>;
}

export type PresenceKey =
  { kind: 'status'; agentId: string } | { kind: 'chat'; agentId: string; chatId: number };

/** The meaning of a presence key; undefined for one no desktop writes. */
export function parsePresenceKey(key: string): PresenceKey | undefined {
  const parts = key.split('.');
  const agentId = parts[0];
  if (!agentId) return undefined;
  if (parts.length === 2 && parts[1] === 'status') return { kind: 'status', agentId };
  if (parts.length === 3 && parts[1] === 'chat' && /^[1-9][0-9]{0,15}$/.test(parts[2] ?? '')) {
    const chatId = Number(parts[2]);
    return Number.isSafeInteger(chatId) ? { kind: 'chat', agentId, chatId } : undefined;
  }
  return undefined;
}

function isStale(updatedAt: number, now: number, staleAfterMs: number): boolean {
  return now - updatedAt > staleAfterMs;
}

/**
 * What an agent shows: the availability it chose, or `away` once it has been idle (no input) for
 * `idleAwayMs`. Busy stays busy: someone heads-down is not away.
 */
export function effectiveAvailability(
  chosen: Availability,
  lastInputAt: number,
  now: number,
  idleAwayMs: number,
): Availability {
  return chosen === 'available' && now - lastInputAt >= idleAwayMs ? 'away' : chosen;
}

export function presenceView(
  records: Iterable<PresenceRecord>,
  now: number,
  staleAfterMs: number,
): TeamPresence {
  const agents = new Map<string, Availability>();
  const chats = new Map<number, Array<{ agentId: string; activity: ChatActivity }>>();
  for (const record of records) {
    if (isStale(record.updatedAt, now, staleAfterMs)) continue;
    const key = parsePresenceKey(record.key);
    if (!key) continue;
    if (key.kind === 'status' && 'availability' in record.value)
      agents.set(key.agentId, record.value.availability);
    if (key.kind === 'chat' && 'activity' in record.value) {
      const here = chats.get(key.chatId) ?? [];
      here.push({ agentId: key.agentId, activity: record.value.activity });
      chats.set(key.chatId, here);
    }
  }
  for (const here of chats.values()) here.sort((a, b) => a.agentId.localeCompare(b.agentId));
  return { agents, chats };
}

/** The agents available for new work, in id order (round-robin's candidates). */
export function availableAgents(presence: TeamPresence): string[] {
  return [...presence.agents]
    .filter(([, availability]) => availability === AVAILABILITIES[0])
    .map(([agentId]) => agentId)
    .sort();
}
