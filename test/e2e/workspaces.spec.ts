/**
 * Connecting the organization's real service from the demo: each failure is explained in words that
 * name its cause (a refused token, an address nobody answers), the token is never left on screen,
 * the right token is tried on both API versions so the agent picks one, and it connects and leaves
 * the demo. The version can be switched later in Settings, the inbox kept.
 */
import { DEMO_TOKEN } from '../../sandbox/index.ts';
import { escapeRegExp, expect, openInbox, test } from './support/parley.ts';
import {
  bubble,
  chatRow,
  conversation,
  conversationList,
  goTo,
  liveIndicator,
  send,
} from './support/screen.ts';

test('a wrong token is refused in words; the right one connects on the chosen API version, switchable later', async ({
  page,
  parley,
}) => {
  await openInbox(page, parley);

  // Given the agent follows the demo banner's offer
  await page
    .getByRole('region', { name: 'Demo workspace' })
    .getByRole('button', { name: 'Connect your organization' })
    .click();
  const form = page.getByRole('heading', { name: 'Connect your organization' }).locator('..');
  const token = form.getByLabel('Integration token');

  // When they enter the service's address with a token it does not know
  await form.getByLabel('Workspace name').fill('Harborview Home Services');
  await form.getByLabel('Base URL').fill(parley.sandbox.url);
  await token.fill('sbx_not_the_right_token');
  await form.getByRole('button', { name: 'Check token' }).click();

  // Then Parley names the cause, marks the token field, and does not keep the token on screen
  const error = form.getByRole('alert');
  await expect(error).toHaveText(
    'The service refused this token. Check that it is the organization’s current integration token.',
  );
  await expect(token).toHaveAttribute('aria-invalid', 'true');
  await expect(token).toHaveAccessibleDescription(/refused this token/);
  await expect(token).toHaveValue('');
  // And no workspace was added
  expect((await parley.call('workspaces.list', {})).workspaces).toHaveLength(1);

  // When the address is one where nothing answers
  await form.getByLabel('Base URL').fill('http://127.0.0.1:9');
  await token.fill('sbx_not_the_right_token');
  await form.getByRole('button', { name: 'Check token' }).click();

  // Then that is the cause named, on the address field
  await expect(error).toHaveText(
    'Parley could not reach that address. Check the URL and your network connection.',
  );
  await expect(form.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true');

  // When they fix both
  await form.getByLabel('Base URL').fill(parley.sandbox.url);
  await token.fill(DEMO_TOKEN);
  await form.getByRole('button', { name: 'Check token' }).click();

  // Then Parley says the token works both ways and offers the choice, V3 preselected and focused
  await expect(form.getByRole('status')).toHaveText(
    /^The token works with both API versions \(\d+ lines\)\. Choose the one this workspace uses\.$/,
  );
  const versions = form.getByRole('radiogroup', { name: 'API version' });
  const v3 = versions.getByRole('radio', { name: /^V3 \(recommended\) The service’s current API/ });
  await expect(v3).toBeChecked();
  await expect(v3).toBeFocused();

  // When the agent picks V2 from the keyboard and connects
  await page.keyboard.press('ArrowDown');
  await expect(versions.getByRole('radio', { name: /^V2/ })).toBeChecked();
  await form.getByRole('button', { name: 'Connect' }).click();

  // Then the new workspace replaces the demo, on V2: the banner is gone and its inbox loads
  await expect(page.getByRole('button', { name: 'Workspace: Harborview Home Services' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Demo workspace' })).toHaveCount(0);
  expect(
    (await parley.call('workspaces.list', {})).workspaces.map((w) => [
      w.name,
      w.kind,
      w.active,
      w.apiVersion,
    ]),
  ).toEqual([['Harborview Home Services', 'remote', true, 'v2']]);
  await expect(conversationList(page).getByRole('option').first()).toBeVisible();
  const [top] = await parley.pickChats(1);
  await expect(chatRow(page, top!.title)).toBeVisible();

  // When, in Settings, they switch the workspace to V3 and confirm
  await goTo(page, 'Settings');
  const row = page.getByRole('listitem').filter({ hasText: 'Harborview Home Services' });
  await expect(row).toContainText('API V2');
  await row.getByRole('button', { name: 'Switch to API V3 (Harborview Home Services)' }).click();
  const confirm = row.getByRole('alertdialog', { name: 'Switch Harborview Home Services to API V3?' });
  await expect(confirm).toHaveAccessibleDescription(/history stays.*migrate_to_v3/);
  await confirm.getByRole('button', { name: 'Switch to V3' }).click();

  // Then the workspace is on V3, said so, and its inbox is still there
  await expect(row).toContainText('API V3');
  await expect(row.getByRole('status')).toHaveText('Now on API V3.');
  expect((await parley.call('workspaces.list', {})).workspaces.map((w) => w.apiVersion)).toEqual(['v3']);
  await goTo(page, 'Inbox');
  await expect(chatRow(page, top!.title)).toBeVisible();
});

test('after connecting, nothing of the demo is left: the quick switcher offers each conversation once, and it opens and sends', async ({
  page,
  parley,
}) => {
  test.slow(); // connects a second workspace, waits out the slow service, and sends
  await openInbox(page, parley);
  await expect(liveIndicator(page)).toHaveAccessibleName(/^Connection: Live/);
  // Given a service slow to let the demo go (its webhook subscription takes 3 s to deactivate), so
  // the demo's session is still open for a while after the new workspace is the active one
  await parley.control('POST', '/faults', {
    method: 'PUT',
    path: 'webhook_subscriptions',
    kind: 'latency',
    latencyMs: 3_000,
    times: 1,
  });

  // When the agent connects the organization's service (the same conversations, under new ids)
  await page
    .getByRole('region', { name: 'Demo workspace' })
    .getByRole('button', { name: 'Connect your organization' })
    .click();
  const form = page.getByRole('heading', { name: 'Connect your organization' }).locator('..');
  await form.getByLabel('Workspace name').fill('Harborview Home Services');
  await form.getByLabel('Base URL').fill(parley.sandbox.url);
  await form.getByLabel('Integration token').fill(DEMO_TOKEN);
  await form.getByRole('button', { name: 'Check token' }).click();
  await form.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('button', { name: 'Workspace: Harborview Home Services' })).toBeVisible();
  await expect(conversationList(page).getByRole('option').first()).toBeVisible();
  const picked = await parley.pickChat((c) => !c.isGroup);
  await expect(chatRow(page, picked.title)).toBeVisible();

  // Then Ctrl+K finds that conversation once: the new workspace's, not also the demo's copy
  await page.keyboard.press('Control+k');
  const switcher = page.getByRole('dialog', { name: 'Quick switcher' });
  await switcher.getByRole('combobox').fill(picked.title);
  const results = switcher.getByRole('listbox', { name: 'Results' });
  const offered = results.getByRole('option', {
    name: new RegExp(`^Conversation: ${escapeRegExp(picked.title)} `),
  });
  await expect(offered).toHaveCount(1);

  // And picking it opens the new workspace's conversation, with its line in the header
  await switcher.getByRole('combobox').press('Enter');
  await expect(conversation(page, picked.title)).toBeVisible();
  await expect(conversation(page, picked.title).locator('.conversation-subtitle')).toContainText('via ');

  // And a message sent there goes out (no "Not sent: No such chat")
  const text = `Sent from the new workspace (${Date.now()})`;
  await send(page, picked.title, text);
  await expect(bubble(page, text)).toHaveAttribute('data-state', /^(pending|delivered)$/);
  await expect(page.getByText(/No such chat/)).toHaveCount(0);
});
