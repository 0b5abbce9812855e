import type { FastifyInstance } from 'fastify';
import {
  createContact,
  type ContactFields,
  defaultOwner,
  deleteContact,
  updateContact,
} from '../../domain/contacts.ts';
import type { Contact, Org, User } from '../../domain/model.ts';
import { isEmail, normalizePhone } from '../../domain/phone.ts';
import { presentContact } from '../../domain/present.ts';
import { type SandboxServices, V2 } from '../context.ts';
import { ApiError, contactError } from '../errors.ts';
import { type Body, pageOf, pagingParams } from '../params.ts';

const CONTACT_FIELDS = {
  first_name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  phone_number: 'phoneNumber',
  company: 'company',
  title: 'title',
  location: 'location',
} as const satisfies Record<string, keyof ContactFields>;

const IDENTIFYING = ['first_name', 'last_name', 'email', 'phone_number'] as const;

const validation = (detail: string): ApiError => contactError(422, 'VALIDATION_ERROR', detail);
const contactNotFound = (): ApiError => contactError(404, 'CONTACT_NOT_FOUND', 'Contact not found');

/** Reads `{contact:{…}}`: strings only, email format, phone normalized to E.164, owner by email. */
function readContact(org: Org, body: unknown): { fields: ContactFields; owner: User | undefined } {
  const outer = body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
  const input = outer.contact;
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw validation('contact is required');
  const contact = input as Body;
  const fields: ContactFields = {};
  for (const [key, prop] of Object.entries(CONTACT_FIELDS)) {
    const value = contact[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw validation(`${key} must be a string`);
    fields[prop] = value.trim();
  }
  if (!IDENTIFYING.some((key) => fields[CONTACT_FIELDS[key]])) {
    throw validation('At least one of first_name, last_name, email or phone_number is required');
  }
  if (fields.email) {
    if (!isEmail(fields.email))
      throw contactError(422, 'INVALID_EMAIL_FORMAT', `email ${fields.email} is not valid`);
    fields.email = fields.email.toLowerCase();
  }
  if (fields.phoneNumber) {
    const phone = normalizePhone(fields.phoneNumber);
    if (!phone) throw validation(`phone_number ${fields.phoneNumber} is not a valid phone number`);
    fields.phoneNumber = phone;
  }
  const userEmail = contact.user_email;
  let owner: User | undefined;
  if (userEmail !== undefined && userEmail !== null) {
    if (typeof userEmail !== 'string') throw validation('user_email must be a string');
    owner = org.users.find((u) => u.email.toLowerCase() === userEmail.trim().toLowerCase());
    if (!owner) throw validation(`user_email ${userEmail} is not a user of your organization`);
  }
  return { fields, owner };
}

function contactOf(org: Org, raw: string | undefined): Contact {
  const contact = raw && /^\d{1,15}$/.test(raw) ? org.contacts.get(Number(raw)) : undefined;
  if (!contact) throw contactNotFound();
  return contact;
}

export function registerContactRoutes(app: FastifyInstance, { world }: SandboxServices): void {
  const config = { errorFormat: 'contact' as const };

  app.get(`${V2}/contacts`, { config }, async (request) => {
    const org = request.org;
    const paging = pagingParams(request.query as Body, (e) => validation(e.detail));
    const contacts = [...org.contacts.values()].sort((a, b) => a.id - b.id);
    const page = pageOf(contacts, paging);
    return {
      contacts: page.slice.map((c) => presentContact(org, c)),
      pagination: {
        current_page: paging.page,
        per_page: paging.perPage,
        total_pages: page.totalPages,
        total_count: page.totalCount,
      },
    };
  });

  /** The contact itself, or `null`; a contact matching either parameter (OR). */
  app.get(`${V2}/contacts/find`, { config }, async (request, reply) => {
    const org = request.org;
    const query = request.query as Body;
    const email = typeof query.email === 'string' && query.email.trim() ? query.email.trim() : undefined;
    const rawPhone =
      typeof query.phone_number === 'string' && query.phone_number.trim()
        ? query.phone_number.trim()
        : undefined;
    if (!email && !rawPhone) {
      throw contactError(400, 'MISSING_SEARCH_PARAMS', 'Provide email or phone_number');
    }
    if (email && !isEmail(email))
      throw contactError(422, 'INVALID_EMAIL_FORMAT', `email ${email} is not valid`);
    const phone = rawPhone ? normalizePhone(rawPhone) : undefined;
    if (rawPhone && !phone) throw validation(`phone_number ${rawPhone} is not a valid phone number`);
    const match = [...org.contacts.values()]
      .sort((a, b) => a.id - b.id)
      .find((c) => (email && c.email === email.toLowerCase()) || (phone && c.phoneNumber === phone));
    return reply.type('application/json').send(match ? JSON.stringify(presentContact(org, match)) : 'null');
  });

  app.post(`${V2}/contacts`, { config }, async (request, reply) => {
    const org = request.org;
    const { fields, owner } = readContact(org, request.body);
    const contact = createContact(world, org, fields, owner ?? defaultOwner(org));
    return reply.status(201).send({ data: presentContact(org, contact) });
  });

  app.get(`${V2}/contacts/:id`, { config }, async (request) => {
    const org = request.org;
    return { data: presentContact(org, contactOf(org, (request.params as { id: string }).id)) };
  });

  const update = async (request: { org: Org; params: unknown; body: unknown }) => {
    const org = request.org;
    const contact = contactOf(org, (request.params as { id: string }).id);
    const { fields, owner } = readContact(org, request.body);
    updateContact(world, org, contact, fields, owner);
    return { data: presentContact(org, contact) };
  };
  app.patch(`${V2}/contacts/:id`, { config }, update);
  app.put(`${V2}/contacts/:id`, { config }, update);

  app.delete(`${V2}/contacts/:id`, { config }, async (request, reply) => {
    const org = request.org;
    deleteContact(world, org, contactOf(org, (request.params as { id: string }).id));
    return reply.status(204).send();
  });
}
