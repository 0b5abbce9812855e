/**
 * The API version as a capability of the workspace, on the demo workspace (which speaks V2): what a
 * V2 workspace cannot do is not shown at all (no effect, service, reply or any-emoji control; issue
 * #32), the core refuses those options with `unsupported` and queues nothing, link messages get a
 * card built from the address alone, and V2 sending works unchanged. The views are axe-checked and
 * photographed in both themes (docs/screenshots/v3-*.png with PARLEY_DOCS_SCREENSHOTS=1).
 */
import type { Page } from '@playwright/test';
import { chooseTheme, photograph, seriousViolations } from './support/look.ts';
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { bubble, bubbles, composer, goTo, openChat, send } from './support/screen.ts';

async function openImessageChat(page: Page, parley: Parley) {
  const picked = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
  await openInbox(page, parley);
  await openChat(page, picked.title);
  return picked;
}

test('on a V2 workspace what it cannot do is not shown, and sending works unchanged', async ({
  page,
  parley,
}) => {
  const { chat, title } = await openImessageChat(page, parley);

  // Given the composer of an iMessage chat on the V2 demo: no effect and no service to choose
  const box = composer(page, title);
  await expect(box).toBeVisible();
  await expect(page.getByRole('combobox', { name: /^Effect/ })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Send as' })).toHaveCount(0);
  await expect(page.getByText(/needs a V3 workspace/)).toHaveCount(0);

  // When the agent sends a plain message, it goes as on V2
  const text = `Your table is booked for 8pm (${Date.now()})`;
  await send(page, title, text);
  const mine = bubble(page, text);
  await expect(mine).toHaveAttribute('data-state', /^(pending|delivered)$/);

  // Then its actions have no Reply, and its reactions are the six tapbacks, with no any-emoji field
  await mine.hover();
  const actions = mine.getByRole('toolbar', { name: 'Message actions' });
  await expect(actions.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(actions.getByRole('button', { name: 'Reply' })).toHaveCount(0);
  await actions.getByRole('button', { name: 'React' }).click();
  const reactions = page.getByRole('menu', { name: 'Reactions' });
  await expect(reactions.getByRole('menuitemcheckbox')).toHaveCount(6);
  await expect(page.getByRole('textbox', { name: /^Any emoji as a reaction/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(reactions).toHaveCount(0);

  // And the core refuses V3-only options itself, queueing nothing
  const before = (await parley.call('messages.page', { chatId: chat.id, limit: 1000 })).messages.length;
  await expect(
    parley.call('messages.send', {
      chatId: chat.id,
      text: 'With confetti',
      effect: { type: 'screen', name: 'confetti' },
    }),
  ).rejects.toThrow(/^messages\.send: unsupported /);
  const after = (await parley.call('messages.page', { chatId: chat.id, limit: 1000 })).messages.length;
  expect(after).toBe(before);
  await expect(bubble(page, 'With confetti')).toHaveCount(0);

  // And the details panel names the workspace's version
  await page.getByRole('button', { name: 'Conversation details' }).click();
  const details = page.getByRole('complementary', { name: 'Conversation details' });
  await expect(details.getByText('API version')).toBeVisible();
  await expect(details.locator('dt:text-is("API version") + dd')).toHaveText('V2');
});

test('a message that is only a link shows a card with its host, fetched from nowhere', async ({
  page,
  parley,
}) => {
  const { title } = await openImessageChat(page, parley);
  const thirdParty: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(new URL(parley.url).origin)) thirdParty.push(request.url());
  });

  // When the agent sends a bare address
  const url = `https://www.example.com/orders/${Date.now()}`;
  await send(page, title, url);

  // Then its bubble carries a card with the host and the address, and nothing was fetched from it
  const card = bubbles(page).getByRole('button', {
    name: `Link to example.com: ${url}. Open in your browser`,
  });
  await expect(card).toBeVisible();
  await expect(card).toContainText('example.com');
  expect(thirdParty).toEqual([]);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the V3 controls in the ${theme} theme are accessible (and photographed)`, async ({
    page,
    parley,
  }, testInfo) => {
    test.setTimeout(120_000);
    const problems: Record<string, string[]> = {};
    const check = async (view: string) => {
      await photograph(page, testInfo, `v3-${view}-${theme}`);
      const found = await seriousViolations(page);
      if (found.length) problems[view] = found;
    };
    const picked = await parley.pickChat((c) => c.service === 'iMessage' && !c.isGroup);
    await openInbox(page, parley);
    await chooseTheme(page, theme);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.getByText('API V2').first()).toBeVisible();
    await check('settings');

    await goTo(page, 'Inbox');
    await openChat(page, picked.title);
    const url = `https://shop.example.com/receipt/${Date.now()}`;
    await send(page, picked.title, url);
    await expect(bubbles(page).getByRole('button', { name: /^Link to shop\.example\.com/ })).toBeVisible();
    await page.getByRole('button', { name: 'Conversation details' }).click();
    await composer(page, picked.title).focus();
    await check('conversation');

    const mine = bubbles(page).filter({ has: page.getByRole('button', { name: /^Link to shop/ }) });
    await expect(mine).toHaveAttribute('data-state', /^(pending|delivered)$/);
    await mine.hover();
    await mine.getByRole('button', { name: 'React' }).click();
    await expect(page.getByRole('menu', { name: 'Reactions' })).toBeVisible();
    await check('reactions');

    expect(problems).toEqual({});
  });
}
