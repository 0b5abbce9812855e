/**
 * A bad moment on the service while the agent sends: 5xx errors and 429s on the send route. The
 * message says it is retrying, is delivered once the service recovers, and exists once.
 */
import { expect, openInbox, test } from './support/parley.ts';
import { bubble, openChat, send } from './support/screen.ts';

test('5xx and 429 while sending: the message retries, then is delivered, once', async ({ page, parley }) => {
  const { chat, title } = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  await openInbox(page, parley);
  await openChat(page, title);

  // Given the service's send route answers 503, then 429 (Retry-After: 1 s), for a while
  const route = { method: 'POST', path: `/chats/${chat.id}/chat_messages$` };
  await parley.control('POST', '/faults', { ...route, kind: 'error', status: 503, times: 1 });
  await parley.control('POST', '/faults', { ...route, kind: 'rate_limit', retryAfterSeconds: 1, times: 6 });

  // When the agent sends a message
  const text = `We can come Thursday at 9 (${Date.now()})`;
  await send(page, title, text);

  // Then the bubble shows at once, and says it is retrying while the service refuses it
  const mine = bubble(page, text);
  await expect(mine).toBeVisible();
  await expect(mine).toHaveAttribute('data-state', 'sending');
  await expect(mine.getByText(/^Retrying/)).toBeVisible();

  // And it is delivered when the service recovers (every injected fault was met on the way)
  await expect(mine).toHaveAttribute('data-state', 'delivered');
  await expect(mine).toContainText('Delivered');
  expect((await parley.control<{ faults: unknown[] }>('GET', '/faults')).faults).toEqual([]);

  // And the service holds it once, however many attempts it took; the timeline shows it once
  expect(await parley.copiesOnService(chat.id, text)).toBe(1);
  await expect(mine).toHaveCount(1);
});
