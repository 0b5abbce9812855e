/**
 * V3 ids: UUIDs derived from the V2 entity they name, so one world answers through both versions
 * and the same entity keeps the same V3 id across resets and restarts (a name-based UUID, version 8).
 */
import { hash } from 'node:crypto';
import type { Org, V3Kind } from '../model.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/**
 * Ids already derived, per organization and kind, by the V2 id: presenting a page hashes nothing
 * twice, and a repeat costs one lookup by number (a V3 page of 50 messages names about 200 ids).
 */
const derived = new WeakMap<Org, Map<V3Kind, Map<number, string>>>();

export function v3Id(org: Org, kind: V3Kind, id: number): string {
  let byKind = derived.get(org);
  if (!byKind) derived.set(org, (byKind = new Map()));
  let known = byKind.get(kind);
  if (!known) byKind.set(kind, (known = new Map()));
  const cached = known.get(id);
  if (cached) return cached;
  const hex = hash('sha256', `pms-v3|${org.id}|${kind}|${id}`, 'hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  org.v3Index.set(uuid, { kind, id });
  known.set(id, uuid);
  return uuid;
}

/** Every entity that existed before ids were handed out gets indexed once, on the first miss. */
const indexed = new WeakSet<Org>();

function indexAll(org: Org): void {
  indexed.add(org);
  v3Id(org, 'org', org.id);
  for (const line of org.lines) v3Id(org, 'line', line.id);
  for (const subscription of org.subscriptions.values()) v3Id(org, 'subscription', subscription.id);
  for (const chat of org.chats.values()) {
    v3Id(org, 'chat', chat.id);
    for (const handle of chat.handles) v3Id(org, 'handle', handle.id);
    for (const message of chat.messages) v3Id(org, 'message', message.id);
  }
  for (const id of org.deletedMessages.keys()) v3Id(org, 'message', id);
}

/** The V2 id a V3 id names, when it names an entity of this kind in this organization. */
export function fromV3Id(org: Org, kind: V3Kind, uuid: string): number | undefined {
  const key = uuid.toLowerCase();
  let hit = org.v3Index.get(key);
  if (!hit && !indexed.has(org)) {
    indexAll(org);
    hit = org.v3Index.get(key);
  }
  return hit?.kind === kind ? hit.id : undefined;
}
