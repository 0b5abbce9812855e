import type { Contact, Org, User } from './model.ts';
import { rebuildContactIndex } from './names.ts';
import { contactEventData } from './webhook-data.ts';
import type { World } from './world.ts';

export interface ContactFields {
  firstName?: string;
  lastName?: string;
  email?: string;
  phoneNumber?: string;
  company?: string;
  title?: string;
  location?: string;
}

export function defaultOwner(org: Org): User {
  const owner = org.users.find((u) => u.admin) ?? org.users[0];
  if (!owner) throw new Error(`organization ${org.id} has no users`);
  return owner;
}

export function createContact(
  world: World,
  org: Org,
  fields: ContactFields,
  owner: User,
  options: { silent?: boolean; at?: number } = {},
): Contact {
  const now = options.at ?? world.clock.now();
  const contact: Contact = {
    id: world.nextId('contact'),
    firstName: fields.firstName ?? '',
    lastName: fields.lastName ?? '',
    email: fields.email ?? '',
    phoneNumber: fields.phoneNumber ?? '',
    company: fields.company ?? '',
    title: fields.title ?? '',
    location: fields.location ?? '',
    imageUrl: null,
    ownerId: owner.id,
    createdAt: now,
    updatedAt: now,
  };
  org.contacts.set(contact.id, contact);
  // The newest contact has the highest id, so it only claims keys no other contact holds.
  for (const key of [contact.phoneNumber, contact.email.toLowerCase()]) {
    if (key && !org.contactIndex.has(key)) org.contactIndex.set(key, contact.id);
  }
  if (!options.silent) world.emit(org, 'contact.created', contactEventData(org, contact));
  return contact;
}

export function updateContact(
  world: World,
  org: Org,
  contact: Contact,
  fields: ContactFields,
  owner?: User,
): Contact {
  if (fields.firstName !== undefined) contact.firstName = fields.firstName;
  if (fields.lastName !== undefined) contact.lastName = fields.lastName;
  if (fields.email !== undefined) contact.email = fields.email;
  if (fields.phoneNumber !== undefined) contact.phoneNumber = fields.phoneNumber;
  if (fields.company !== undefined) contact.company = fields.company;
  if (fields.title !== undefined) contact.title = fields.title;
  if (fields.location !== undefined) contact.location = fields.location;
  if (owner) contact.ownerId = owner.id;
  contact.updatedAt = world.clock.now();
  rebuildContactIndex(org);
  world.emit(org, 'contact.updated', contactEventData(org, contact));
  return contact;
}

export function deleteContact(world: World, org: Org, contact: Contact): void {
  org.contacts.delete(contact.id);
  rebuildContactIndex(org);
  world.emit(org, 'contact.deleted', { id: contact.id });
}
