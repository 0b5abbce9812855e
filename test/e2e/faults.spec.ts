/**
 * Bad moments on the service. While the agent sends: 5xx errors and 429s on the send route; the
 * message says it is retrying, is delivered once the service recovers, and exists once. With no chat
 * open: every connection dropped; the indicator says Offline until the service is back. A slow answer
 * to a send: the service's copy, seen first, shows as the same one bubble.
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

test('a slow answer to a send: the chat shows one bubble for the message throughout, under one key', async ({
  page,
  parley,
}) => {
  const { chat, title } = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  await openInbox(page, parley);
  await openChat(page, title);

  // Given the service does a send at once but holds its answer back for a while
  await parley.control('POST', '/faults', {
    method: 'POST',
    path: `/chats/${chat.id}/chat_messages$`,
    kind: 'slow_response',
    latencyMs: 8_000,
    times: 1,
  });
  const text = `Your part has arrived (${Date.now()})`;
  // Every bubble showing this text, as each change to the timeline left it.
  await page.evaluate((watched) => {
    const seen: Array<{ count: number; keys: string[] }> = [];
    (window as unknown as { seenBubbles: typeof seen }).seenBubbles = seen;
    new MutationObserver(() => {
      const mine = [...document.querySelectorAll<HTMLElement>('[data-testid="message"]')].filter(
        (node) => node.querySelector('.message-text')?.textContent === watched,
      );
      if (mine.length > 0 || seen.length > 0)
        seen.push({ count: mine.length, keys: mine.map((node) => node.dataset.key ?? '') });
    }).observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
  }, text);
  const seen = () =>
    page.evaluate(
      () => (window as unknown as { seenBubbles: Array<{ count: number; keys: string[] }> }).seenBubbles,
    );

  // When the agent sends a message
  await send(page, title, text);
  const mine = bubble(page, text);
  await expect(mine).toBeVisible();

  // Then the service's copy, listed before the answer comes, shows as that same bubble…
  await expect.poll(() => parley.copiesOnService(chat.id, text)).toBe(1);
  await expect(mine).toHaveAttribute('data-state', /^(pending|delivered)$/);
  const key = (await mine.getAttribute('data-key')) as string;
  const outbox = parley.host.core.session.store.outbox;
  expect(outbox.byMessageKey(key)).toBeDefined(); // the answer is still held
  // …and it is delivered, and the send done, once the answer arrives
  await expect(mine).toHaveAttribute('data-state', 'delivered');
  await expect.poll(() => outbox.byMessageKey(key), { timeout: 20_000 }).toBeUndefined();

  // One bubble at every moment, always under the key the renderer gave it; the service holds it once
  const moments = await seen();
  expect(moments.length).toBeGreaterThan(0);
  expect(moments.every((m) => m.count === 1)).toBe(true);
  expect([...new Set(moments.flatMap((m) => m.keys))]).toEqual([key]);
  await expect(mine).toHaveCount(1);
  expect(await parley.copiesOnService(chat.id, text)).toBe(1);
});
