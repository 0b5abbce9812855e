/**
 * Bad moments on the service. While the agent sends: 5xx errors and 429s on the send route; the
 * message says it is retrying, is delivered once the service recovers, and exists once. With no chat
 * open: every connection dropped; the indicator says Offline until the service is back.
 */
import { expect, openInbox, test } from './support/parley.ts';
import { bubble, liveIndicator, openChat, send } from './support/screen.ts';

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

test('an outage with no chat open: the indicator says Offline, never Live while it lasts, and Live after', async ({
  page,
  parley,
}) => {
  // The app notices a quiet outage with its own probe, a quiet spell (30 s) after the last request.
  test.setTimeout(120_000);
  await openInbox(page, parley);
  const indicator = liveIndicator(page);
  await expect(indicator).toHaveAccessibleName(/^Connection: Live/);
  // Every name the indicator takes from here on, as the agent would have seen it.
  await indicator.evaluate((element) => {
    const names: string[] = [];
    (window as unknown as { indicatorNames: string[] }).indicatorNames = names;
    new MutationObserver(() => names.push(element.getAttribute('aria-label') ?? '')).observe(element, {
      attributes: true,
      attributeFilter: ['aria-label'],
    });
  });
  const names = () => page.evaluate(() => (window as unknown as { indicatorNames: string[] }).indicatorNames);

  // Given no chat is open, when the service drops every connection
  await parley.control('POST', '/faults', { kind: 'reset' });

  // Then the indicator says Offline, with the reason
  await expect(indicator).toHaveAccessibleName(/^Connection: Offline\. .+/, { timeout: 45_000 });

  // And it stays so through three more of the app's own probes
  const reachability = parley.host.core.session.reachability;
  const probes = reachability.probes;
  await expect.poll(() => reachability.probes, { timeout: 30_000 }).toBeGreaterThanOrEqual(probes + 3);
  await expect(indicator).toHaveAccessibleName(/^Connection: Offline/);
  const seen = await names();
  expect(seen.slice(seen.findIndex((name) => name.startsWith('Connection: Offline')))).not.toContainEqual(
    expect.stringMatching(/^Connection: Live/),
  );

  // When the service is back, then Live again
  await parley.control('DELETE', '/faults');
  await expect(indicator).toHaveAccessibleName(/^Connection: Live/);
});
