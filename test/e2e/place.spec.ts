/**
 * The agent's place survives a reload: the conversation they had open, scrolled where they left it
 * (kept per workspace in the core's settings, so an app restart in either host returns there too).
 */
import { expect, openInbox, test } from './support/parley.ts';
import { bubble, bubbles, conversation, openChat, send, timeline } from './support/screen.ts';

test('after a reload the same conversation is open at the same place', async ({ page, parley }) => {
  // Given a conversation with more history than fits on screen, open and scrolled up
  const chats = await parley.pickChats(10);
  const sizes = await Promise.all(
    chats.map(
      async (c) => (await parley.call('messages.page', { chatId: c.chat.id, limit: 1000 })).messages.length,
    ),
  );
  const longest = Math.max(...sizes);
  const picked = chats[sizes.indexOf(longest)];
  if (!picked || longest < 12)
    throw new Error(`the longest conversation near the top has ${longest} messages`);
  const { title } = picked;
  await page.setViewportSize({ width: 1280, height: 640 });
  await openInbox(page, parley);
  await openChat(page, title);
  const newest = bubbles(page).last();
  await expect(newest).toBeInViewport();
  const newestKey = await newest.getAttribute('data-key');
  await timeline(page).hover();
  for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -400);
  await expect(page.locator(`[data-key="${newestKey}"]`)).not.toBeInViewport();

  // The place is kept once the scrolling settles: the message at the top of the view, whichever
  // pauses the wheel's scrolling made on the way there
  const topOfView = () =>
    timeline(page).evaluate((log) => {
      const scroller = log.closest<HTMLElement>('[data-virtuoso-scroller]') ?? log;
      const top = scroller.getBoundingClientRect().top;
      const rows = [...log.querySelectorAll<HTMLElement>('[data-testid="message"]')];
      return rows.find((row) => row.getBoundingClientRect().bottom > top + 4)?.dataset['key'] ?? null;
    });
  await expect
    .poll(async () => {
      const place = (await parley.call('settings.get', {})).place;
      return (
        place?.chatId === picked.chat.id && place.topKey !== null && place.topKey === (await topOfView())
      );
    })
    .toBe(true);
  const { topKey } = (await parley.call('settings.get', {})).place!;
  await expect(page.locator(`[data-key="${topKey}"]`)).toBeInViewport();

  // Watch every change of the page from the reload on: "Beginning of the conversation" must never
  // show while the timeline's messages are still loading
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { beginningTooEarly: string[] }).beginningTooEarly = seen;
    new MutationObserver(() => {
      const log = document.querySelector('[role=log]');
      const beginning = [...document.querySelectorAll('.timeline-edge')].some((el) =>
        el.textContent?.includes('Beginning of the conversation'),
      );
      const loading = document.querySelector(
        '[aria-label="Loading messages"], [aria-label="Loading older messages"]',
      );
      if (beginning && (loading || !log?.querySelector('[data-testid=message]')))
        seen.push(loading ? 'with a loading spinner' : 'with no message in the log');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });

  // When the agent reloads the window
  await page.reload();

  // Then the same conversation is open, at the same message, not at the newest
  await expect(conversation(page, title)).toBeVisible();
  await expect(page.locator(`[data-key="${topKey}"]`)).toBeInViewport();
  await expect(page.locator(`[data-key="${topKey}"]`)).not.toHaveClass(/is-highlighted/);
  await expect(page.locator(`[data-key="${newestKey}"]`)).not.toBeInViewport();
  expect(
    await page.evaluate(() => (window as unknown as { beginningTooEarly: string[] }).beginningTooEarly),
  ).toEqual([]);

  // When the agent sends from there, the view comes down to their message
  const text = `Sent from the kept place (${Date.now()})`;
  await send(page, title, text);
  await expect(bubble(page, text)).toBeInViewport();

  // And back at the newest, a reload opens it at the newest
  await expect.poll(async () => (await parley.call('settings.get', {})).place?.topKey).toBeNull();
  await page.reload();
  await expect(conversation(page, title)).toBeVisible();
  await expect(bubble(page, text)).toBeInViewport();

  // And opening another conversation, without scrolling, makes that one the place
  const other = chats.find((c) => c.chat.id !== picked.chat.id)!;
  await openChat(page, other.title);
  await expect
    .poll(async () => (await parley.call('settings.get', {})).place)
    .toMatchObject({ chatId: other.chat.id });
  await page.reload();
  await expect(conversation(page, other.title)).toBeVisible();
});
