import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContactError, expectV2Error, type Harness, startHarness } from './harness.ts';
import type { Json } from './http-clients.ts';

let h: Harness;
let line: string;

beforeAll(async () => {
  h = await startHarness({ seed: 'empty' });
  line = (await h.lines())[0]!.phone_number;
});
afterAll(() => h?.stop());

describe('required parameters', () => {
  it('when send_from is missing, then 400 missing_phone whose detail names send_from', async () => {
    const customer = await h.newCustomer();
    const response = await h.a.post('/chats', {
      json: { chat: { phone_numbers: [customer] }, message: { text: 'hi' } },
    });
    const error = expectV2Error(response, 400, 'missing_phone');
    expect(error.detail).toContain('send_from');
  });

  it('when the chat object (and so chat.phone_numbers) is missing, then 400 missing_phone naming it', async () => {
    const missing = await h.a.post('/chats', { json: { send_from: line, message: { text: 'hi' } } });
    expect(expectV2Error(missing, 400, 'missing_phone').detail).toContain('phone_numbers');
  });

  it('when chat.phone_numbers is absent from chat or empty, then 400 missing_phone naming it', async () => {
    const absent = await h.a.post('/chats', { json: { send_from: line, chat: {}, message: { text: 'hi' } } });
    expect(expectV2Error(absent, 400, 'missing_phone').detail).toContain('phone_numbers');
    const empty = await h.a.post('/chats', {
      json: { send_from: line, chat: { phone_numbers: [] }, message: { text: 'hi' } },
    });
    expect(expectV2Error(empty, 400, 'missing_phone').detail).toContain('phone_numbers');
  });

  it('when message.text is missing, then 400 missing_param naming it', async () => {
    const customer = await h.newCustomer();
    const response = await h.a.post('/chats', {
      json: { send_from: line, chat: { phone_numbers: [customer] } },
    });
    expect(expectV2Error(response, 400, 'missing_param').detail).toContain('message.text');
  });

  it('when listing chats without phone_number, then 400 missing_phone', async () => {
    expectV2Error(await h.a.get('/chats'), 400, 'missing_phone');
  });

  it('when finding a chat without phone_numbers[], then 400 missing_phone naming it', async () => {
    const response = await h.a.get('/chats/find', { query: { phone_number: line } });
    expect(expectV2Error(response, 400, 'missing_phone').detail).toContain('phone_numbers');
  });
});

describe('phone number formats', () => {
  it('when a recipient is formatted like "(212) 555-0100", then 422 invalid_params naming the field, and no chat exists', async () => {
    const response = await h.a.post('/chats', {
      json: { send_from: line, chat: { phone_numbers: ['(212) 555-0100'] }, message: { text: 'hi' } },
    });
    expect(expectV2Error(response, 422, 'invalid_params').detail).toContain('phone_numbers');
    const list = await h.a.get('/chats', { query: { phone_number: line } });
    expect(
      list.body.data.flatMap((c: Json) => c.chat_handles.map((x: Json) => x.phone_number)),
    ).not.toContain('+12125550100');
  });

  it('when send_from is formatted, then 422 invalid_params', async () => {
    const customer = await h.newCustomer();
    const formatted = line.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3');
    const response = await h.a.post('/chats', {
      json: { send_from: formatted, chat: { phone_numbers: [customer] }, message: { text: 'hi' } },
    });
    expectV2Error(response, 422, 'invalid_params');
  });

  it('when a recipient is given as 10 US digits, then it is accepted as +1 and the chat is created', async () => {
    const customer = await h.newCustomer();
    const response = await h.a.post('/chats', {
      json: {
        send_from: line,
        chat: { phone_numbers: [customer.slice(2)] },
        message: { text: 'ten digits' },
      },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.chat_handles.map((c: Json) => c.phone_number)).toContain(customer);
  });

  it('when send_from is not a number of the organization, then 403 forbidden', async () => {
    const customer = await h.newCustomer();
    const response = await h.a.post('/chats', {
      json: { send_from: '+12125559876', chat: { phone_numbers: [customer] }, message: { text: 'hi' } },
    });
    expectV2Error(response, 403, 'forbidden');
  });

  it('when the recipients include send_from itself, then 422 invalid_params', async () => {
    const response = await h.a.post('/chats', {
      json: { send_from: line, chat: { phone_numbers: [line] }, message: { text: 'hi' } },
    });
    expectV2Error(response, 422, 'invalid_params');
  });

  it('when the message text is empty and nothing is attached, then 422 invalid_params', async () => {
    const { chat } = await h.newChat();
    expectV2Error(
      await h.a.post(`/chats/${chat.id}/chat_messages`, { json: { message: { text: '   ' } } }),
      422,
      'invalid_params',
    );
  });
});

describe('request bodies', () => {
  it('when the JSON is malformed, then 400 invalid_json', async () => {
    const response = await h.a.post('/chats', { raw: '{"send_from": "+1', contentType: 'application/json' });
    expectV2Error(response, 400, 'invalid_json');
  });

  it('when the reactions endpoint (JSON) gets text/plain, then 415 unsupported_media_type', async () => {
    const { chat } = await h.newChat();
    const [message] = (await h.a.get(`/chats/${chat.id}/chat_messages`)).body.data;
    const reaction = await h.a.post(`/chat_messages/${message.id}/reactions`, {
      raw: 'type=love&operation=add',
      contentType: 'text/plain',
    });
    expectV2Error(reaction, 415, 'unsupported_media_type');
  });

  it('when create chat gets text/plain, then 415 unsupported_media_type', async () => {
    const create = await h.a.post('/chats', { raw: 'send_from=+1', contentType: 'text/plain' });
    expectV2Error(create, 415, 'unsupported_media_type');
  });

  it('when a JSON endpoint gets an unknown content type, then 415 unsupported_media_type', async () => {
    const { chat } = await h.newChat();
    const response = await h.a.post(`/chats/${chat.id}/chat_messages`, {
      raw: '<message/>',
      contentType: 'application/xml',
    });
    expectV2Error(response, 415, 'unsupported_media_type');
  });

  it('when a contact route gets malformed JSON, then 400 INVALID_JSON in the contact format', async () => {
    expectContactError(
      await h.a.post('/contacts', { raw: '{"contact":', contentType: 'application/json' }),
      400,
      'INVALID_JSON',
    );
  });

  it('when a contact route gets text/plain, then 415 UNSUPPORTED_MEDIA_TYPE in the contact format', async () => {
    expectContactError(
      await h.a.post('/contacts', { raw: 'first_name=Ada', contentType: 'text/plain' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('when a path does not exist, then 404 not_found in the V2 format', async () => {
    expectV2Error(await h.a.get('/no_such_resource'), 404, 'not_found');
  });

  it('when paging parameters of messages are invalid, then 422 invalid_params', async () => {
    const { chat } = await h.newChat();
    expectV2Error(
      await h.a.get(`/chats/${chat.id}/chat_messages`, { query: { per_page: -3 } }),
      422,
      'invalid_params',
    );
    expectV2Error(
      await h.a.get(`/chats/${chat.id}/chat_messages`, { query: { page: '1.5' } }),
      422,
      'invalid_params',
    );
  });
});
