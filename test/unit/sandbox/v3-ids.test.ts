/** V3 ids are derived from the V2 entity: stable, distinct per kind and organization, and reversible. */
import { describe, expect, it } from 'vitest';
import { createClock } from '../../../sandbox/clock.ts';
import { fromV3Id, isUuid, v3Id } from '../../../sandbox/domain/v3/ids.ts';
import { createOrg, createWorld } from '../../../sandbox/domain/world.ts';
import { createRandom } from '../../../sandbox/random.ts';
import { seedOrg } from '../../../sandbox/seed/index.ts';

function demoWorld() {
  const world = createWorld(createClock(), createRandom(1));
  const org = createOrg(world, { name: 'Demo', token: 'token-a' });
  seedOrg(world, org, { kind: 'demo' }, { orgIndex: 0 });
  const other = createOrg(world, { name: 'Other', token: 'token-b' });
  return { org, other };
}

describe('V3 ids', () => {
  it('given the same entity in two worlds, then the same UUID; another kind or organization, another UUID', () => {
    const first = demoWorld();
    const second = demoWorld();
    const chatId = [...first.org.chats.keys()][0]!;
    const id = v3Id(first.org, 'chat', chatId);
    expect(isUuid(id)).toBe(true);
    expect(v3Id(second.org, 'chat', chatId)).toBe(id);
    expect(v3Id(first.org, 'message', chatId)).not.toBe(id);
    expect(v3Id(first.other, 'chat', chatId)).not.toBe(id);
  });

  it('given a UUID handed out in another run, then it resolves to its entity; of another kind, to nothing', () => {
    const chatId = [...demoWorld().org.chats.keys()][3]!;
    const uuid = v3Id(demoWorld().org, 'chat', chatId);
    const fresh = demoWorld();
    expect(fromV3Id(fresh.org, 'chat', uuid)).toBe(chatId);
    expect(fromV3Id(fresh.org, 'message', uuid)).toBeUndefined();
    expect(fromV3Id(fresh.other, 'chat', uuid)).toBeUndefined();
  });
});
