import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContactError, type Harness, ISO, startHarness } from './harness.ts';
import type { Json } from './http-clients.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ seed: 'empty' });
});
afterAll(() => h?.stop());

const SECRET = 'whsec_contract_7c0ffee';

function body(fields: Record<string, unknown>) {
  return { json: { webhook_subscription: fields } };
}

async function createSubscription(fields: Record<string, unknown> = {}) {
  return h.a.post(
    '/webhook_subscriptions',
    body({
      webhook_url: 'https://hooks.example.com/parley',
      version: 2,
      events: ['message.received', 'message.sent'],
      secret: SECRET,
      ...fields,
    }),
  );
}

/** Every key at Json depth of a JSON value. */
function keysDeep(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysDeep);
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => [key, ...keysDeep(inner)]);
  }
  return [];
}

describe('create and list', () => {
  it('when created with a secret, then 201 with secret_configured true and the secret nowhere in the response', async () => {
    const response = await createSubscription();
    expect(response.status).toBe(201);
    expect(response.body.webhook_subscription).toEqual({
      id: expect.any(Number),
      webhook_url: 'https://hooks.example.com/parley',
      version: 2,
      events: ['message.received', 'message.sent'],
      active: true,
      secret_configured: true,
      last_delivered_at: null,
      delivery_attempts: 0,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(keysDeep(response.body)).not.toContain('secret');
    expect(response.text).not.toContain(SECRET);
  });

  it('when created without a secret or inactive, then secret_configured false and active as given', async () => {
    const response = await createSubscription({
      secret: undefined,
      active: false,
      webhook_url: 'http://127.0.0.1:9/plain',
    });
    expect(response.status).toBe(201);
    expect(response.body.webhook_subscription).toMatchObject({
      secret_configured: false,
      active: false,
      webhook_url: 'http://127.0.0.1:9/plain',
    });
  });

  it('given subscriptions, when listed, then {webhook_subscriptions:[…]} with them and no secret', async () => {
    const created = await createSubscription({ webhook_url: 'https://hooks.example.com/listed' });
    const response = await h.a.get('/webhook_subscriptions');
    expect(response.status).toBe(200);
    const listed = response.body.webhook_subscriptions.find(
      (s: Json) => s.id === created.body.webhook_subscription.id,
    );
    expect(listed).toEqual(created.body.webhook_subscription);
    expect(keysDeep(response.body)).not.toContain('secret');
    expect(response.text).not.toContain(SECRET);
  });

  it("given A's subscription, when B lists or updates, then B sees nothing and gets 404 NOT_FOUND", async () => {
    const created = await createSubscription({ webhook_url: 'https://hooks.example.com/tenancy' });
    const id = created.body.webhook_subscription.id;
    const list = await h.b.get('/webhook_subscriptions');
    expect(list.status).toBe(200);
    expect(list.body.webhook_subscriptions.map((s: Json) => s.id)).not.toContain(id);
    expectContactError(
      await h.b.put(`/webhook_subscriptions/${id}`, body({ active: false })),
      404,
      'NOT_FOUND',
    );
    expectContactError(await h.b.delete(`/webhook_subscriptions/${id}`), 404, 'NOT_FOUND');
  });

  it('when events repeat, then they are stored once', async () => {
    const response = await createSubscription({
      events: ['chat.created', 'chat.created', 'contact.created'],
    });
    expect(response.status).toBe(201);
    expect(response.body.webhook_subscription.events).toEqual(['chat.created', 'contact.created']);
  });
});

describe('validation (contact error format, 422 VALIDATION_ERROR)', () => {
  it('when an event is unknown', async () => {
    expectContactError(
      await createSubscription({ events: ['message.sent', 'message.exploded'] }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('when the URL is not http(s) or not a URL', async () => {
    expectContactError(
      await createSubscription({ webhook_url: 'ftp://hooks.example.com/x' }),
      422,
      'VALIDATION_ERROR',
    );
    expectContactError(await createSubscription({ webhook_url: 'not a url' }), 422, 'VALIDATION_ERROR');
  });

  it('when version, url or events is missing', async () => {
    expectContactError(await createSubscription({ version: undefined }), 422, 'VALIDATION_ERROR');
    expectContactError(await createSubscription({ webhook_url: undefined }), 422, 'VALIDATION_ERROR');
    expectContactError(await createSubscription({ events: undefined }), 422, 'VALIDATION_ERROR');
    expectContactError(await createSubscription({ events: [] }), 422, 'VALIDATION_ERROR');
  });

  it('when nothing was created by invalid requests, then the list does not grow', async () => {
    const before = (await h.a.get('/webhook_subscriptions')).body.webhook_subscriptions.length;
    await createSubscription({ events: ['nope'] });
    await createSubscription({ webhook_url: 'mailto:someone@example.com' });
    expect((await h.a.get('/webhook_subscriptions')).body.webhook_subscriptions).toHaveLength(before);
  });
});

describe('update and delete', () => {
  it('given a subscription, when PUT with only active:false, then only active (and updated_at) change', async () => {
    const created = (await createSubscription({ webhook_url: 'https://hooks.example.com/partial' })).body
      .webhook_subscription;
    const response = await h.a.put(`/webhook_subscriptions/${created.id}`, body({ active: false }));
    expect(response.status).toBe(200);
    expect(response.body.webhook_subscription).toEqual({
      ...created,
      active: false,
      updated_at: expect.stringMatching(ISO),
    });
  });

  it('given a subscription, when PUT with new events and url, then they are replaced; secret null removes the secret', async () => {
    const created = (await createSubscription()).body.webhook_subscription;
    const updated = await h.a.put(
      `/webhook_subscriptions/${created.id}`,
      body({ events: ['contact.created'], webhook_url: 'https://hooks.example.com/moved' }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.webhook_subscription).toMatchObject({
      events: ['contact.created'],
      webhook_url: 'https://hooks.example.com/moved',
      secret_configured: true,
    });
    const unsigned = await h.a.put(`/webhook_subscriptions/${created.id}`, body({ secret: null }));
    expect(unsigned.body.webhook_subscription.secret_configured).toBe(false);
  });

  it('when an update is invalid, then 422 VALIDATION_ERROR and the subscription is unchanged', async () => {
    const created = (await createSubscription()).body.webhook_subscription;
    expectContactError(
      await h.a.put(`/webhook_subscriptions/${created.id}`, body({ events: ['bogus.event'] })),
      422,
      'VALIDATION_ERROR',
    );
    const listed = (await h.a.get('/webhook_subscriptions')).body.webhook_subscriptions.find(
      (s: Json) => s.id === created.id,
    );
    expect(listed.events).toEqual(created.events);
  });

  it('given a subscription, when deleted, then 204, it leaves the list, and later PUT/DELETE → 404 NOT_FOUND', async () => {
    const created = (await createSubscription()).body.webhook_subscription;
    const response = await h.a.delete(`/webhook_subscriptions/${created.id}`);
    expect(response.status).toBe(204);
    expect(response.text).toBe('');
    const list = await h.a.get('/webhook_subscriptions');
    expect(list.body.webhook_subscriptions.map((s: Json) => s.id)).not.toContain(created.id);
    expectContactError(
      await h.a.put(`/webhook_subscriptions/${created.id}`, body({ active: true })),
      404,
      'NOT_FOUND',
    );
    expectContactError(await h.a.delete(`/webhook_subscriptions/${created.id}`), 404, 'NOT_FOUND');
  });
});
