import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContactError, type Harness, ISO, startHarness } from './harness.ts';
import type { Json } from './http-clients.ts';

let h: Harness;
/** Emails of the organization's users, learned from the phone numbers' `user`. */
let userEmails: string[];
let phoneCounter = 0;

beforeAll(async () => {
  h = await startHarness({ seed: 'demo' });
  const lines = (await h.a.get('/phone_numbers')).body.phone_numbers;
  userEmails = [...new Set<string>(lines.filter((l: Json) => l.user).map((l: Json) => l.user.email))];
  expect(userEmails.length, 'the demo lines name their users').toBeGreaterThan(1);
});
afterAll(() => h?.stop());

/** A fresh E.164 number and its "(NXX) 555-01xx" national form. */
function freshPhone(): { e164: string; formatted: string } {
  const suffix = String(10 + phoneCounter++).padStart(2, '0');
  return { e164: `+131355501${suffix}`, formatted: `(313) 555-01${suffix}` };
}

async function create(contact: Record<string, unknown>) {
  return h.a.post('/contacts', { json: { contact } });
}

function expectContactShape(contact: Json): void {
  expect(contact).toEqual({
    id: expect.any(Number),
    first_name: expect.any(String),
    last_name: expect.any(String),
    full_name: expect.any(String),
    email: expect.any(String),
    phone_number: expect.any(String),
    company: expect.any(String),
    title: expect.any(String),
    location: expect.any(String),
    image_url: contact.image_url === null ? null : expect.any(String),
    created_at: expect.stringMatching(ISO),
    updated_at: expect.stringMatching(ISO),
    contact_owner: {
      id: expect.any(Number),
      email: expect.any(String),
      first_name: expect.any(String),
      last_name: expect.any(String),
      name: expect.any(String),
    },
  });
}

describe('list contacts', () => {
  it('given the seeded contacts, when listing with per_page 5, then {contacts, pagination} with consistent counts', async () => {
    const response = await h.a.get('/contacts', { query: { per_page: 5 } });
    expect(response.status).toBe(200);
    const { pagination, contacts } = response.body;
    expect(pagination).toEqual({
      current_page: 1,
      per_page: 5,
      total_pages: expect.any(Number),
      total_count: expect.any(Number),
    });
    expect(pagination.total_count).toBeGreaterThan(5);
    expect(pagination.total_pages).toBe(Math.ceil(pagination.total_count / 5));
    expect(contacts).toHaveLength(5);
    contacts.forEach(expectContactShape);
  });

  it('when per_page exceeds 100 it is clamped; page past the end is empty; invalid paging → 422 VALIDATION_ERROR', async () => {
    const clamped = await h.a.get('/contacts', { query: { per_page: 1000 } });
    expect(clamped.body.pagination.per_page).toBe(100);
    const past = await h.a.get('/contacts', { query: { page: 500 } });
    expect(past.status).toBe(200);
    expect(past.body.contacts).toEqual([]);
    expect(past.body.pagination.current_page).toBe(500);
    expectContactError(await h.a.get('/contacts', { query: { per_page: 0 } }), 422, 'VALIDATION_ERROR');
  });
});

describe('create, read, update, delete', () => {
  it('when a contact is created, then 201 {data: Contact} owned by the first admin user by default', async () => {
    const phone = freshPhone();
    const response = await create({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'Ada.Lovelace@Example.com',
      phone_number: phone.e164,
      company: 'Analytical Engines',
      title: 'Programmer',
      location: 'London',
    });
    expect(response.status).toBe(201);
    expectContactShape(response.body.data);
    expect(response.body.data).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      full_name: 'Ada Lovelace',
      email: 'ada.lovelace@example.com',
      phone_number: phone.e164,
      company: 'Analytical Engines',
      title: 'Programmer',
      location: 'London',
      image_url: null,
    });
    expect(userEmails).toContain(response.body.data.contact_owner.email);
  });

  it('given user_email of another user, when creating, then contact_owner is that user', async () => {
    const owner = userEmails[1]!;
    const response = await create({ first_name: 'Owned', user_email: owner });
    expect(response.status).toBe(201);
    expect(response.body.data.contact_owner.email).toBe(owner);
  });

  it('when a formatted phone number is given, then it is stored in E.164', async () => {
    const phone = freshPhone();
    const response = await create({ first_name: 'Formatted', phone_number: phone.formatted });
    expect(response.status).toBe(201);
    expect(response.body.data.phone_number).toBe(phone.e164);
  });

  it('when none of name, email or phone is given, then 422 VALIDATION_ERROR in the contact format', async () => {
    expectContactError(await create({ company: 'Nameless Inc' }), 422, 'VALIDATION_ERROR');
    expectContactError(await h.a.post('/contacts', { json: {} }), 422, 'VALIDATION_ERROR');
  });

  it('when the email is malformed → 422 INVALID_EMAIL_FORMAT; unknown user_email → 422 VALIDATION_ERROR', async () => {
    expectContactError(
      await create({ first_name: 'Bad', email: 'not-an-email' }),
      422,
      'INVALID_EMAIL_FORMAT',
    );
    expectContactError(
      await create({ first_name: 'Orphan', user_email: 'nobody@nowhere.example' }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('given a contact, when read, then {data: Contact}; a missing id → 404 CONTACT_NOT_FOUND', async () => {
    const created = await create({ first_name: 'Grace', last_name: 'Hopper' });
    const response = await h.a.get(`/contacts/${created.body.data.id}`);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(created.body.data);
    expectContactError(await h.a.get('/contacts/987654321'), 404, 'CONTACT_NOT_FOUND');
  });

  it('given a contact, when PATCHed with one field, then only that field changes', async () => {
    const phone = freshPhone();
    const created = await create({
      first_name: 'Alan',
      last_name: 'Turing',
      phone_number: phone.e164,
      company: 'Bletchley',
    });
    const response = await h.a.patch(`/contacts/${created.body.data.id}`, {
      json: { contact: { last_name: 'M. Turing' } },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      id: created.body.data.id,
      first_name: 'Alan',
      last_name: 'M. Turing',
      full_name: 'Alan M. Turing',
      phone_number: phone.e164,
      company: 'Bletchley',
      created_at: created.body.data.created_at,
    });
    expect(Date.parse(response.body.data.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(created.body.data.updated_at),
    );
  });

  it('given a contact, when PUT with a partial body, then it behaves like PATCH (and user_email moves the owner)', async () => {
    const created = await create({ first_name: 'Katherine', last_name: 'Johnson', title: 'Mathematician' });
    const owner = userEmails[1]!;
    const response = await h.a.put(`/contacts/${created.body.data.id}`, {
      json: { contact: { email: 'kj@nasa.example', user_email: owner } },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      first_name: 'Katherine',
      last_name: 'Johnson',
      title: 'Mathematician',
      email: 'kj@nasa.example',
    });
    expect(response.body.data.contact_owner.email).toBe(owner);
  });

  it('when an update names none of name, email or phone, then 422 VALIDATION_ERROR; a missing id → 404', async () => {
    const created = await create({ first_name: 'Update', last_name: 'Rules' });
    expectContactError(
      await h.a.patch(`/contacts/${created.body.data.id}`, {
        json: { contact: { company: 'Only company' } },
      }),
      422,
      'VALIDATION_ERROR',
    );
    expectContactError(
      await h.a.patch('/contacts/987654321', { json: { contact: { first_name: 'x' } } }),
      404,
      'CONTACT_NOT_FOUND',
    );
    expectContactError(
      await h.a.put('/contacts/987654321', { json: { contact: { first_name: 'x' } } }),
      404,
      'CONTACT_NOT_FOUND',
    );
  });

  it('given a contact, when deleted, then 204 and afterwards 404 for read and delete', async () => {
    const created = await create({ first_name: 'Temporary' });
    const response = await h.a.delete(`/contacts/${created.body.data.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    expectContactError(await h.a.get(`/contacts/${created.body.data.id}`), 404, 'CONTACT_NOT_FOUND');
    expectContactError(await h.a.delete(`/contacts/${created.body.data.id}`), 404, 'CONTACT_NOT_FOUND');
  });
});

describe('contacts/find', () => {
  it('given a contact, when found by email (Json case), then the Contact itself, not wrapped', async () => {
    const created = await create({
      first_name: 'Find',
      last_name: 'ByEmail',
      email: 'find.by.email@example.com',
    });
    const response = await h.a.get('/contacts/find', { query: { email: 'Find.By.Email@example.com' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(created.body.data);
  });

  it('given a contact with an E.164 phone, when found by a parenthesized or dashed number, then it matches', async () => {
    const phone = freshPhone();
    const created = await create({ first_name: 'Find', last_name: 'ByPhone', phone_number: phone.e164 });
    const parenthesized = await h.a.get('/contacts/find', { query: { phone_number: phone.formatted } });
    expect(parenthesized.status).toBe(200);
    expect(parenthesized.body.id).toBe(created.body.data.id);
    const dashed = await h.a.get('/contacts/find', {
      query: { phone_number: phone.e164.slice(2).replace(/^(\d{3})(\d{3})/, '$1-$2-') },
    });
    expect(dashed.body.id).toBe(created.body.data.id);
  });

  it('given email and phone of two different contacts or of none, then either matching contact is returned (OR)', async () => {
    const phone = freshPhone();
    const byPhone = await create({ first_name: 'Or', last_name: 'Phone', phone_number: phone.e164 });
    const emailOnly = await h.a.get('/contacts/find', {
      query: { email: 'nobody-or@example.com', phone_number: phone.e164 },
    });
    expect(emailOnly.body.id).toBe(byPhone.body.data.id);
    const byEmail = await create({ first_name: 'Or', last_name: 'Email', email: 'or.email@example.com' });
    const phoneMiss = await h.a.get('/contacts/find', {
      query: { email: 'or.email@example.com', phone_number: freshPhone().e164 },
    });
    expect(phoneMiss.body.id).toBe(byEmail.body.data.id);
  });

  it('when nothing matches, then 200 with the body null', async () => {
    const response = await h.a.get('/contacts/find', { query: { email: 'no.such.person@example.com' } });
    expect(response.status).toBe(200);
    expect(response.text.trim()).toBe('null');
  });

  it('when neither email nor phone is given → 400 MISSING_SEARCH_PARAMS; bad email → 422 INVALID_EMAIL_FORMAT', async () => {
    expectContactError(await h.a.get('/contacts/find'), 400, 'MISSING_SEARCH_PARAMS');
    expectContactError(
      await h.a.get('/contacts/find', { query: { email: 'broken@' } }),
      422,
      'INVALID_EMAIL_FORMAT',
    );
  });

  it('given two contacts with the same phone, when found, then the lowest id wins', async () => {
    const phone = freshPhone();
    const first = await create({ first_name: 'Twin', last_name: 'One', phone_number: phone.e164 });
    await create({ first_name: 'Twin', last_name: 'Two', phone_number: phone.e164 });
    const response = await h.a.get('/contacts/find', { query: { phone_number: phone.e164 } });
    expect(response.body.id).toBe(first.body.data.id);
  });
});
