// The inbox's order is defined in the core (`chats-repo` list: filter, pinned, back from a snooze,
// latest activity, newest id) and applied again in the renderer (`renderer/lib/inbox-order.ts`), which
// places changed chats in the loaded list without asking the core. This property test holds the two
// to one definition: for random inboxes, filters and changes, wherever the renderer places the
// changed chats itself, the result is exactly what the core's list says after the change.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore } from '../../../../electron/core/store/local-store.ts';
import type { Chat } from '../../../../shared/domain.ts';
import { placeChangedChats } from '../../../../renderer/lib/inbox-order.ts';
import { createRandom } from '../../../../sandbox/random.ts';
import type { ChatFilter } from '../../../../renderer/store/chats-slice.ts';

/** The sandbox's seeded generator, so a failing case can be replayed from its seed. */
function random(seed: number): { int(max: number): number; chance(p: number): boolean } {
  const rng = createRandom(seed);
  return { int: (max) => rng.int(0, max - 1), chance: (p) => rng.chance(p) };
}

const LINE_NUMBERS = ['+14155550100', '+14155550200'];
const NOW = 1_700_000_000_000;

describe("the renderer's inbox order agrees with the core's list", () => {
  let dir: string;
  let store: LocalStore;
  let messageId = 0;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'parley-order-'));
    new LocalStore(join(dir, 'empty.db')).close();
    store = new LocalStore(join(dir, 'store-0.db'));
    messageId = 0;
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const message = (chatId: number, sentAt: number, fromMe: boolean) => ({
    id: ++messageId,
    chatId,
    text: `message ${messageId}`,
    sentAt,
    deliveryStatus: 'delivered',
    isRead: fromMe,
    fromMe,
    sender: fromMe ? LINE_NUMBERS[0]! : '+14155550999',
  });

  /** Given an inbox of `count` chats in random states (some at the same moment, some snoozed). */
  function seedInbox(rng: ReturnType<typeof random>, count: number): void {
    store.transaction(() => {
      for (let id = 1; id <= count; id++) {
        const lineId = 1 + rng.int(2);
        store.chats.upsert([
          {
            id,
            lineId,
            displayName: `Chat ${id}`,
            service: rng.chance(0.5) ? 'iMessage' : 'SMS',
            handles: [
              { id: id * 10, identifier: LINE_NUMBERS[lineId - 1]!, service: 'SMS', joinedAt: 1, isMe: true },
              {
                id: id * 10 + 1,
                identifier: `+1415555${1000 + id}`,
                service: 'SMS',
                joinedAt: 1,
                isMe: false,
              },
            ],
          },
        ]);
        // Coarse times make ties in activity, which the order breaks by id.
        if (rng.chance(0.9)) store.messages.upsert([message(id, NOW + rng.int(8) * 1000, rng.chance(0.5))]);
        store.chats.setFlags(id, {
          pinned: rng.chance(0.15),
          archived: rng.chance(0.15),
          markedUnread: rng.chance(0.1),
        });
        if (rng.chance(0.15)) store.snoozes.snooze(id, NOW + 3_600_000, NOW);
      }
    });
    // Some snoozes have ended: those chats come back above newer activity.
    for (const snooze of store.snoozes.sleeping())
      if (rng.chance(0.5)) store.snoozes.wakeOnReply(snooze.chatId, NOW + 10_000);
  }

  /** When the chats change in random ways the app changes them (a new message, a flag). */
  function changeSome(rng: ReturnType<typeof random>, count: number): number[] {
    const changed = new Set<number>();
    const times = 1 + rng.int(3);
    for (let i = 0; i < times; i++) {
      const id = 1 + rng.int(count);
      changed.add(id);
      const what = rng.int(4);
      if (what === 0) store.messages.upsert([message(id, NOW + (5 + rng.int(8)) * 1000, rng.chance(0.5))]);
      if (what === 1) store.chats.setFlags(id, { pinned: rng.chance(0.5) });
      if (what === 2) store.chats.setFlags(id, { archived: rng.chance(0.3) });
      if (what === 3) store.chats.setFlags(id, { markedUnread: rng.chance(0.5) });
    }
    return [...changed];
  }

  const coreFilter = (filter: ChatFilter, limit: number) => ({
    archived: filter.archived,
    unreadOnly: filter.unreadOnly,
    limit,
    ...(filter.lineId !== null ? { lineId: filter.lineId } : {}),
    ...(filter.service !== null ? { service: filter.service } : {}),
  });

  it('places changed chats where the core lists them, for 300 random inboxes and changes', () => {
    let placedByRenderer = 0;
    for (let seed = 1; seed <= 300; seed++) {
      // A fresh inbox per case, from an empty store already migrated (migrating each is slow).
      store.close();
      rmSync(join(dir, `store-${seed - 1}.db`), { force: true });
      copyFileSync(join(dir, 'empty.db'), join(dir, `store-${seed}.db`));
      store = new LocalStore(join(dir, `store-${seed}.db`));
      const rng = random(seed);
      const count = 4 + rng.int(14);
      seedInbox(rng, count);
      const filter: ChatFilter = {
        lineId: rng.chance(0.3) ? 1 + rng.int(2) : null,
        unreadOnly: rng.chance(0.25),
        service: rng.chance(0.2) ? 'SMS' : null,
        archived: rng.chance(0.15),
      };
      const limit = 3 + rng.int(count);
      // The core lists one more than it shows, to tell whether the list goes on.
      const before = store.chats.list(coreFilter(filter, limit + 1));
      const loaded = before.slice(0, limit);
      const chatsById: Record<number, Chat> = Object.fromEntries(loaded.map((c) => [c.id, c]));

      const changedIds = changeSome(rng, count);
      const changedChats = store.chats.byIds(changedIds);
      const placed = placeChangedChats(
        {
          chatIds: loaded.map((c) => c.id),
          chatsById: { ...chatsById, ...Object.fromEntries(changedChats.map((c) => [c.id, c])) },
          filter,
          limit,
          hasMore: before.length > limit,
        },
        {
          chatIds: changedIds,
          chats: changedChats,
          snoozed: new Set(store.snoozes.sleeping().map((s) => s.chatId)),
          woken: new Set(store.snoozes.woken().map((s) => s.chatId)),
        },
      );
      if (placed === null) continue; // the renderer asks the core again: nothing to compare
      placedByRenderer++;
      const after = store.chats.list(coreFilter(filter, limit + 1));
      expect({ seed, chatIds: placed.chatIds }).toEqual({
        seed,
        chatIds: after.slice(0, limit).map((c) => c.id),
      });
      // "More below" may stay on after a chat that was never loaded left the list (the renderer
      // cannot know it was there; the next page then comes back empty), but it is never off while
      // the core has more: no chat is ever out of reach.
      if (after.length > limit) expect({ seed, hasMore: placed.hasMore }).toEqual({ seed, hasMore: true });
    }
    // The property means something only if the renderer places most changes itself.
    expect(placedByRenderer).toBeGreaterThan(150);
  });
});
