import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContactError, expectV2Error, type Harness, startHarness, TOKEN_A } from './harness.ts';
import { apiClient, type Json } from './http-clients.ts';

let h: Harness;
/** A chat, one of its messages and a contact of organization A (from the demo seed). */
let chatA: Json;
let messageA: Json;
let contactA: Json;
let lineA: string;

beforeAll(async () => {
  h = await startHarness({ seed: 'demo' });
  lineA = (await h.lines())[0]!.phone_number;
  const chats = await h.a.get('/chats', { query: { phone_number: lineA } });
  chatA = chats.body.data[0];
  const messages = await h.a.get(`/chats/${chatA.id}/chat_messages`);
  messageA = messages.body.data[0];
  const contacts = await h.a.get('/contacts');
  contactA = contacts.body.contacts[0];
});
afterAll(() => h?.stop());

describe('V2 authentication', () => {
  it('given no token header, when listing phone numbers, then 401 unauthorized in the V2 error format', async () => {
    const response = await h.anonymous.get('/phone_numbers');
    expectV2Error(response, 401, 'unauthorized');
  });

  it('given a token no organization has, when listing chats, then 401 unauthorized', async () => {
    const response = await apiClient(h.url, 'sbx_not_a_real_token').get('/chats', {
      query: { phone_number: lineA },
    });
    expectV2Error(response, 401, 'unauthorized');
  });

  it('given the token in a V3 Bearer header only, when calling a V2 path, then 401 unauthorized', async () => {
    const response = await fetch(`${h.url}/api/partner/v2/phone_numbers`, {
      headers: { authorization: `Bearer ${TOKEN_A}` },
    });
    expect(response.status).toBe(401);
    expect((await response.json()).errors[0].code).toBe('unauthorized');
  });

  it('given a valid token, when listing phone numbers, then 200', async () => {
    const response = await h.a.get('/phone_numbers');
    expect(response.status).toBe(200);
    expect(response.body.phone_numbers.length).toBeGreaterThan(0);
  });
});

describe('tenancy: organization B cannot reach organization A', () => {
  it('given A has chats, when B asks for one of them, then 404 not_found', async () => {
    expect((await h.a.get(`/chats/${chatA.id}`)).status).toBe(200);
    expectV2Error(await h.b.get(`/chats/${chatA.id}`), 404, 'not_found');
  });

  it("given A's chat, when B lists its messages or fetches one, then 404", async () => {
    expectV2Error(await h.b.get(`/chats/${chatA.id}/chat_messages`), 404, 'not_found');
    expectV2Error(await h.b.get(`/chats/${chatA.id}/chat_messages/${messageA.id}`), 404, 'not_found');
  });

  it("given A's chat, when B sends into it, types in it or migrates it, then 404 and nothing is added", async () => {
    const before = (await h.a.get(`/chats/${chatA.id}`)).body.data.message_count;
    expectV2Error(
      await h.b.post(`/chats/${chatA.id}/chat_messages`, { json: { message: { text: 'intrusion' } } }),
      404,
      'not_found',
    );
    expectV2Error(await h.b.post(`/chats/${chatA.id}/start_typing`), 404, 'not_found');
    expectV2Error(await h.b.get(`/chats/${chatA.id}/migrate_to_v3`), 404, 'not_found');
    expect((await h.a.get(`/chats/${chatA.id}`)).body.data.message_count).toBe(before);
  });

  it("given A's message, when B reacts to it, then 404", async () => {
    const response = await h.b.post(`/chat_messages/${messageA.id}/reactions`, {
      json: { type: 'like', operation: 'add' },
    });
    expectV2Error(response, 404, 'not_found');
  });

  it("given A's contact, when B reads, updates or deletes it, then 404 CONTACT_NOT_FOUND and the contact is intact", async () => {
    expectContactError(await h.b.get(`/contacts/${contactA.id}`), 404, 'CONTACT_NOT_FOUND');
    expectContactError(
      await h.b.patch(`/contacts/${contactA.id}`, { json: { contact: { first_name: 'Mallory' } } }),
      404,
      'CONTACT_NOT_FOUND',
    );
    expectContactError(await h.b.delete(`/contacts/${contactA.id}`), 404, 'CONTACT_NOT_FOUND');
    const still = await h.a.get(`/contacts/${contactA.id}`);
    expect(still.status).toBe(200);
    expect(still.body.data.first_name).toBe(contactA.first_name);
  });

  it("given A has contacts, when B lists or searches contacts, then none of A's appear", async () => {
    const list = await h.b.get('/contacts', { query: { per_page: 100 } });
    expect(list.status).toBe(200);
    expect(list.body.contacts.map((c: Json) => c.id)).not.toContain(contactA.id);
    const query: Record<string, string> = contactA.email
      ? { email: contactA.email }
      : { phone_number: contactA.phone_number };
    const found = await h.b.get('/contacts/find', { query });
    expect(found.status).toBe(200);
    expect(found.body).toBeNull();
  });

  it("given A's line, when B sets its forwarding number, then 403 forbidden and A's line is unchanged", async () => {
    const [line] = await h.lines();
    const response = await h.b.put(`/phone_numbers/${line!.id}`, {
      json: { forwarding_number: '+12125550999' },
    });
    expectV2Error(response, 403, 'forbidden');
    const after = (await h.lines()).find((l) => l.id === line!.id);
    expect(after!.forwarding_number).toBe(line!.forwarding_number);
  });

  it("given A's line, when B lists its chats or sends from it, then 403 forbidden", async () => {
    expectV2Error(await h.b.get('/chats', { query: { phone_number: lineA } }), 403, 'forbidden');
    const create = await h.b.post('/chats', {
      json: { send_from: lineA, chat: { phone_numbers: ['+12125550998'] }, message: { text: 'hi' } },
    });
    expectV2Error(create, 403, 'forbidden');
  });

  it("given B's phone numbers, when listed, then none of A's lines appear", async () => {
    const aNumbers = (await h.lines()).map((l) => l.phone_number);
    const bNumbers = (await h.lines(h.b)).map((l) => l.phone_number);
    expect(bNumbers.length).toBeGreaterThan(0);
    for (const number of bNumbers) expect(aNumbers).not.toContain(number);
  });
});

describe('the control API is closed to partner tokens', () => {
  it('given only a partner token, when opening /__sandbox, then 401', async () => {
    const response = await fetch(`${h.url}/__sandbox/state`, {
      headers: { 'x-partner-integration-token': TOKEN_A },
    });
    expect(response.status).toBe(401);
  });

  it('given a partner token in the admin secret header, when opening /__sandbox, then 401', async () => {
    const response = await fetch(`${h.url}/__sandbox/state`, {
      headers: { 'x-sandbox-admin-secret': TOKEN_A },
    });
    expect(response.status).toBe(401);
  });

  it('given the admin secret, when opening /__sandbox/state, then 200', async () => {
    const response = await h.control.call('GET', '/state');
    expect(response.status).toBe(200);
  });
});

describe('V3 paths answer in the V3 envelope', () => {
  async function v3(path: string, headers: Record<string, string>, method = 'GET') {
    const response = await fetch(`${h.url}/api/partner/v3${path}`, { method, headers });
    return {
      status: response.status,
      traceHeader: response.headers.get('x-trace-id'),
      body: await response.json(),
    };
  }

  it('given no bearer token, when calling a V3 path, then 401 code 2004 with a trace_id matching X-Trace-ID', async () => {
    const { status, traceHeader, body } = await v3('/chats', {});
    expect(status).toBe(401);
    expect(body).toEqual({
      success: false,
      error: { status: 401, code: 2004, message: expect.any(String), doc_url: expect.any(String) },
      trace_id: expect.any(String),
    });
    expect(body.trace_id.length).toBeGreaterThan(0);
    expect(traceHeader).toBe(body.trace_id);
  });

  it('given an unknown bearer token or only the V2 header, when calling V3, then 401 code 2004', async () => {
    expect((await v3('/chats', { authorization: 'Bearer sbx_nobody' })).body.error.code).toBe(2004);
    const v2Header = await v3('/phone_numbers', { 'x-partner-integration-token': TOKEN_A });
    expect(v2Header.status).toBe(401);
    expect(v2Header.body.error.code).toBe(2004);
  });

  it('given a valid bearer token, when calling a V3 feature the sandbox does not offer, then 403 code 2011', async () => {
    const { status, traceHeader, body } = await v3('/blocked_handles', {
      authorization: `Bearer ${TOKEN_A}`,
    });
    expect(status).toBe(403);
    expect(body.success).toBe(false);
    expect(body.error).toMatchObject({ status: 403, code: 2011 });
    expect(typeof body.error.message).toBe('string');
    expect(typeof body.error.doc_url).toBe('string');
    expect(body.error).not.toHaveProperty('retry_after');
    expect(traceHeader).toBe(body.trace_id);
  });

  it('given two V3 requests, then each gets its own trace id', async () => {
    const first = await v3('/chats', {});
    const second = await v3('/chats', {});
    expect(first.body.trace_id).not.toBe(second.body.trace_id);
  });
});
