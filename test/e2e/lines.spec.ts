/**
 * Lines and call forwarding: a forwarding number is set (after a typo is caught) and cleared, and
 * the service holds what the screen says.
 */
import { formatHandle } from '../../shared/phone.ts';
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { goTo } from './support/screen.ts';

async function forwardingOnService(parley: Parley, lineId: number): Promise<string | null> {
  const { phone_numbers } = await parley.service<{
    phone_numbers: Array<{ id: number; forwarding_number: string | null }>;
  }>('GET', '/phone_numbers');
  const line = phone_numbers.find((l) => l.id === lineId);
  if (!line) throw new Error(`line ${lineId} is not on the service`);
  return line.forwarding_number;
}

test('set a line’s forwarding number, then clear it', async ({ page, parley }) => {
  const line = (await parley.call('lines.list', {})).find((l) => l.forwardingNumber === null);
  if (!line) throw new Error('the demo has no line without forwarding');
  await openInbox(page, parley);
  await goTo(page, 'Lines & forwarding');

  // Given the line's card, which forwards nowhere yet
  const card = page.getByRole('listitem').filter({
    has: page.getByRole('heading', { name: formatHandle(line.phoneNumber) }),
  });
  const field = card.getByRole('textbox', { name: 'Forward calls to' });
  await expect(field).toHaveValue('');
  await expect(card).toContainText(line.userName ?? '');

  // When the agent types a number with a digit missing (formatted as they type), it is caught
  // before saving
  await field.fill('415 555 019');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('status')).toHaveText('“(415) 555-019” is not a phone number.');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(await forwardingOnService(parley, line.id)).toBeNull();

  // When they type it right and save
  await field.fill('415 555 0199');
  await card.getByRole('button', { name: 'Save' }).click();

  // Then Parley confirms, and the service forwards to it
  await expect(card.getByRole('status')).toHaveText('Forwarding number saved.');
  await expect(field).toHaveValue(formatHandle('+14155550199'));
  expect(await forwardingOnService(parley, line.id)).toBe('+14155550199');

  // When they empty the field and clear it
  await field.fill('');
  await card.getByRole('button', { name: 'Clear' }).click();

  // Then forwarding is off, on the service too
  await expect(card.getByRole('status')).toHaveText('Forwarding turned off.');
  expect(await forwardingOnService(parley, line.id)).toBeNull();
});
