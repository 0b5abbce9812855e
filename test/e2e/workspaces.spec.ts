/**
 * Connecting the organization's real service from the demo: each failure is explained in words that
 * name its cause (a refused token, an address nobody answers), the token is never left on screen,
 * and the right token connects and leaves the demo.
 */
import { DEMO_TOKEN } from '../../sandbox/index.ts';
import { expect, openInbox, test } from './support/parley.ts';
import { conversationList } from './support/screen.ts';

test('connecting with a wrong token says the service refused it; the right one connects', async ({
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
  await form.getByRole('button', { name: 'Connect' }).click();

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
  await form.getByRole('button', { name: 'Connect' }).click();

  // Then that is the cause named, on the address field
  await expect(error).toHaveText(
    'Parley could not reach that address. Check the URL and your network connection.',
  );
  await expect(form.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true');

  // When they fix both
  await form.getByLabel('Base URL').fill(parley.sandbox.url);
  await token.fill(DEMO_TOKEN);
  await form.getByRole('button', { name: 'Connect' }).click();

  // Then the new workspace replaces the demo: the banner is gone and its inbox loads
  await expect(page.getByRole('button', { name: 'Workspace: Harborview Home Services' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Demo workspace' })).toHaveCount(0);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: /^Inbox/ })
    .click();
  await expect(conversationList(page).getByRole('listitem').first()).toBeVisible();
  expect(
    (await parley.call('workspaces.list', {})).workspaces.map((w) => [w.name, w.kind, w.active]),
  ).toEqual([['Harborview Home Services', 'remote', true]]);
});
