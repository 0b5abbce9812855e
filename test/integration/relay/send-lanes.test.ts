/**
 * The relay makes the team's sends side by side, one conversation at a time: a send the service
 * takes its time over in one conversation holds up neither the other agents' sends elsewhere nor
 * anything but the sends after it in its own conversation, which still reach the service in order.
 * A real relay on the sandbox (its latency fault slowing one conversation), a real nats-server,
 * two agents' desktop ports.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { control, service } from '../core/helpers.ts';
import { startPortRelay, type PortDesktop, type PortRelay } from './port-helpers.ts';

const call = { priority: 'user' as const };
const nothing = { files: [], attachmentUrls: [] };
/** Far longer than a send takes on the sandbox: the slow send is still at the service meanwhile. */
const SLOW_MS = 12_000;

let org: PortRelay;
let dana: PortDesktop;
let sam: PortDesktop;
let slowChat: number;
let otherChat: number;

beforeAll(async () => {
  org = await startPortRelay('v2');
  dana = await org.desktop('Dana');
  sam = await org.desktop('Sam');
  const [first, second] = org.relay.session.store.chats.list().filter((c) => !c.isGroup);
  slowChat = first?.id as number;
  otherChat = second?.id as number;
}, 120_000);

afterAll(async () => {
  await org?.stop();
});

async function textsOnService(chatId: number): Promise<string[]> {
  const { data } = await service<{ data: Array<{ text: string }> }>(
    org.sandbox,
    `/chats/${chatId}/chat_messages?sort=asc&per_page=100`,
  );
  return data.map((m) => m.text);
}

describe('sends through the relay', () => {
  it('in another conversation are not held up by a slow one; in the same conversation they follow it, in order', async () => {
    // Given the service takes its time over the next send in Dana's conversation
    await control(org.sandbox, 'POST', '/faults', {
      method: 'POST',
      path: `/chats/${slowChat}/chat_messages$`,
      kind: 'latency',
      latencyMs: SLOW_MS,
      times: 1,
    });
    const settled: string[] = [];
    const track = <T>(name: string, sending: Promise<T>) =>
      sending.then((result) => {
        settled.push(name);
        return result;
      });

    // When Dana sends there, then Dana sends a second there and Sam sends in another conversation
    const slow = track('slow', dana.port.send(slowChat, { text: 'Dana first', ...nothing }, call));
    await expect
      .poll(async () => (await control<{ faults: unknown[] }>(org.sandbox, 'GET', '/faults')).faults.length)
      .toBe(0);
    const after = track('after', dana.port.send(slowChat, { text: 'Dana second', ...nothing }, call));
    const elsewhere = track(
      'elsewhere',
      sam.port.send(otherChat, { text: 'Sam elsewhere', ...nothing }, call),
    );

    // Then Sam's is made while Dana's first is still at the service
    await elsewhere;
    expect(settled).toEqual(['elsewhere']);
    // and Dana's second only after her first, which the service has in that order, once each (the
    // service's order is the guarantee: each call asks for its own outcome, up to every 500 ms, so
    // the two outcomes written a moment apart may be seen here in either order)
    await Promise.all([slow, after]);
    expect(settled).toHaveLength(3);
    const texts = await textsOnService(slowChat);
    expect(texts.filter((t) => t === 'Dana first' || t === 'Dana second')).toEqual([
      'Dana first',
      'Dana second',
    ]);
    expect((await textsOnService(otherChat)).filter((t) => t === 'Sam elsewhere')).toHaveLength(1);
  }, 90_000);
});
