/**
 * The organization's contacts: create one, find one, edit one (with the service's validation shown
 * beside the field it is about), delete one. Every change is checked on the service.
 */
import type { Page } from '@playwright/test';
import type { Contact } from '../../shared/domain.ts';
import { formatHandle } from '../../shared/phone.ts';
import { expect, openInbox, test, type Parley } from './support/parley.ts';
import { goTo } from './support/screen.ts';

interface ServiceContact {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  company: string;
}

async function contactOnService(parley: Parley, email: string): Promise<ServiceContact | null> {
  return parley.service<ServiceContact | null>('GET', `/contacts/find?email=${encodeURIComponent(email)}`);
}

function contactList(page: Page) {
  return page.getByRole('list', { name: 'Contact list' });
}

/** A seeded contact with a name, an email and a phone number. */
async function someContact(parley: Parley): Promise<Contact> {
  const { contacts } = await parley.call('contacts.list', { limit: 50 });
  const contact = contacts.find((c) => c.firstName && c.lastName && c.email && c.phoneNumber);
  if (!contact) throw new Error('the demo has no complete contact');
  return contact;
}

/** Contacts view, searched down to one person, opened. */
async function findAndOpen(page: Page, contact: Contact): Promise<void> {
  await goTo(page, 'Contacts');
  await page.getByRole('searchbox', { name: 'Search contacts' }).fill(contact.lastName);
  await contactList(page)
    .getByRole('button', { name: new RegExp(contact.fullName) })
    .click();
  await expect(page.getByRole('heading', { name: contact.fullName, level: 2 })).toBeVisible();
}

test('create a contact, then find them', async ({ page, parley }) => {
  await openInbox(page, parley);
  await goTo(page, 'Contacts');

  // When the agent creates a contact
  await page.getByRole('button', { name: 'New contact' }).click();
  await expect(page.getByRole('heading', { name: 'New contact' })).toBeVisible();
  await page.getByLabel('First name', { exact: true }).fill('Dana');
  await page.getByLabel('Last name', { exact: true }).fill('Whitfield');
  await page.getByLabel('Phone number', { exact: true }).fill('628 555 0177');
  await page.getByLabel('Email', { exact: true }).fill('dana.whitfield@example.com');
  await page.getByLabel('Company', { exact: true }).fill('Whitfield Property Management');
  await page.getByRole('button', { name: 'Create contact' }).click();

  // Then their card opens, with the number formatted
  await expect(page.getByRole('heading', { name: 'Dana Whitfield', level: 2 })).toBeVisible();
  await expect(page.getByText(formatHandle('+16285550177'), { exact: true })).toBeVisible();

  // And the service has them
  expect(await contactOnService(parley, 'dana.whitfield@example.com')).toMatchObject({
    first_name: 'Dana',
    last_name: 'Whitfield',
    phone_number: '+16285550177',
    company: 'Whitfield Property Management',
  });

  // When the agent searches the contacts by company, then by a name that does not exist
  const search = page.getByRole('searchbox', { name: 'Search contacts' });
  await search.fill('Whitfield Property');
  await expect(contactList(page).getByRole('button')).toHaveCount(1);
  await expect(contactList(page).getByRole('button', { name: /Dana Whitfield/ })).toBeVisible();
  await search.fill('Zebulon Nobody');
  await expect(page.getByText('No contacts match')).toBeVisible();
});

test('edit a contact; an owner who is not a user is refused beside the field', async ({ page, parley }) => {
  const contact = await someContact(parley);
  await openInbox(page, parley);
  await findAndOpen(page, contact);

  // When the agent edits the company and names an owner who is not a user of the organization
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: `Edit ${contact.fullName}` })).toBeVisible();
  await page.getByLabel('Company', { exact: true }).fill('Bayside Rentals LLC');
  await page.getByLabel('Owner (user email)', { exact: true }).fill('nobody@example.com');
  await page.getByRole('button', { name: 'Save changes' }).click();

  // Then the service's refusal shows under the owner field, and nothing changed there
  const owner = page.getByLabel('Owner (user email)', { exact: true });
  await expect(owner).toHaveAttribute('aria-invalid', 'true');
  await expect(owner).toHaveAccessibleDescription(/nobody@example\.com is not a user of your organization/i);
  expect((await contactOnService(parley, contact.email))?.company).toBe(contact.company);

  // When they empty the owner field (keeping the current owner) and save again
  await owner.fill('');
  await page.getByRole('button', { name: 'Save changes' }).click();

  // Then the card shows the new company, and so does the service
  await expect(page.getByRole('heading', { name: contact.fullName, level: 2 })).toBeVisible();
  await expect(page.getByText('Bayside Rentals LLC').first()).toBeVisible();
  expect((await contactOnService(parley, contact.email))?.company).toBe('Bayside Rentals LLC');
  expect((await parley.call('contacts.list', { query: contact.email })).contacts[0]?.owner?.email).toBe(
    contact.owner?.email,
  );
});

test('delete a contact, after confirming', async ({ page, parley }) => {
  const contact = await someContact(parley);
  await openInbox(page, parley);
  await findAndOpen(page, contact);

  // When the agent deletes them, Parley asks first
  await page.getByRole('button', { name: 'Delete contact' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this contact?' });
  await expect(confirm).toContainText(contact.fullName);
  await confirm.getByRole('button', { name: 'Delete contact' }).click();

  // Then they leave the list, and the service
  await expect(contactList(page).getByRole('button', { name: new RegExp(contact.fullName) })).toHaveCount(0);
  await expect.poll(() => contactOnService(parley, contact.email)).toBeNull();
});
