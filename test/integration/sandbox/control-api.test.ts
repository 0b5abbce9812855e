/**
 * The sandbox's own control API: simulated time and reset. This file runs at speed 1, so a
 * 60-second typing timeout can only pass quickly through the time control, not on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContactError, type Harness, startHarness, subscribe, TOKEN_B } from './harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from './local-servers.ts';

let h: Harness;
let receiver: WebhookReceiver;

beforeAll(async () => {
  h = await startHarness({ seed: 'demo', speed: 1 });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await h?.stop();
  await receiver?.close();
});

describe('simulated time', () => {
  it('given a customer typing, when 61 s of simulated time pass, then typing_indicator.removed arrives', async () => {
    await subscribe(h.a, {
      url: receiver.url,
      events: ['typing_indicator.received', 'typing_indicator.removed'],
    });
    const { chat, customer } = await h.newChat();
    const chatId = String(chat.id);
    await h.control.ok('POST', '/inbound/typing', { chat_id: chat.id, from: customer, display: true });
    await receiver.waitFor(
      (e) => e.event_type === 'typing_indicator.received' && e.data.chat_id === chatId,
      'typing shown',
    );
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).customers_typing).toEqual([customer]);
    expect(
      receiver.matching((e) => e.event_type === 'typing_indicator.removed' && e.data.chat_id === chatId),
    ).toHaveLength(0);

    const before = Date.parse((await h.control.ok('GET', '/state')).now);
    const advanced = await h.control.ok('POST', '/time', { advance_ms: 61_000 });
    expect(Date.parse(advanced.now) - before).toBeGreaterThanOrEqual(61_000);

    const removed = await receiver.waitFor(
      (e) => e.event_type === 'typing_indicator.removed' && e.data.chat_id === chatId,
      'typing removed after the time jump',
    );
    expect(removed.json.data.display).toBe(false);
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).customers_typing).toEqual([]);
  });

  it('given the organization typing, when 61 s pass, then its indicator has expired', async () => {
    const { chat } = await h.newChat();
    await h.a.post(`/chats/${chat.id}/start_typing`);
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).org_typing).toBe(true);
    await h.control.ok('POST', '/time', { advance_ms: 61_000 });
    expect((await h.control.ok('GET', `/chats/${chat.id}`)).org_typing).toBe(false);
  });

  it('given a pending message at speed 1, when simulated time passes, then it is delivered', async () => {
    const { chat } = await h.newChat({ service: 'SMS' });
    const sent = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      json: { message: { text: 'time travel' } },
    });
    expect(sent.body.data.delivery_status).toBe('pending');
    await h.control.ok('POST', '/time', { advance_ms: 5_000 });
    const after = await h.a.get(`/chats/${chat.id}/chat_messages/${sent.body.data.id}`);
    expect(after.body.data.delivery_status).toBe('delivered');
  });
});

describe('reset', () => {
  it('given changes to the seeded world, when reset, then the seed is restored', async () => {
    const initial = await h.a.get('/contacts', { query: { per_page: 1 } });
    const seededCount = initial.body.pagination.total_count;
    const seededFirst = initial.body.contacts[0];

    const created = await h.a.post('/contacts', {
      json: { contact: { first_name: 'Ephemeral', last_name: 'Person' } },
    });
    expect(created.status).toBe(201);
    await h.a.delete(`/contacts/${seededFirst.id}`);
    const bContact = await h.b.post('/contacts', { json: { contact: { first_name: 'B side' } } });
    const { chat } = await h.newChat();
    expect((await h.a.get('/contacts', { query: { per_page: 1 } })).body.pagination.total_count).toBe(
      seededCount,
    );

    expect(await h.control.ok('POST', '/reset')).toEqual({ ok: true });

    expectContactError(await h.a.get(`/contacts/${created.body.data.id}`), 404, 'CONTACT_NOT_FOUND');
    const restored = await h.a.get(`/contacts/${seededFirst.id}`);
    expect(restored.status).toBe(200);
    expect(restored.body.data.full_name).toBe(seededFirst.full_name);
    expect((await h.a.get('/contacts', { query: { per_page: 1 } })).body.pagination.total_count).toBe(
      seededCount,
    );
    expectContactError(await h.b.get(`/contacts/${bContact.body.data.id}`), 404, 'CONTACT_NOT_FOUND');
    expect((await h.a.get(`/chats/${chat.id}`)).status).toBe(404);
    expect((await h.a.get('/webhook_subscriptions')).body.webhook_subscriptions).toEqual([]);
  });

  it('given a changed configuration, when reset, then the tokens still work and control settings are back to the start', async () => {
    await h.control.ok('PUT', '/org', { share_contact: false }, TOKEN_B);
    await h.control.ok('POST', '/reset');
    expect((await h.b.get('/phone_numbers')).status).toBe(200);
    const state = await h.control.ok('GET', '/state');
    expect(state.speed).toBe(1);
    expect(state.rate_limit).toEqual({ perSecond: 50, burst: 100 });
    expect(await h.control.ok('PUT', '/org', {}, TOKEN_B)).toMatchObject({ share_contact: true });
  });
});
