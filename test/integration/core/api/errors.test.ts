/** Error formats as they arrive over HTTP, and tolerance of responses richer than the spec. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PartnerApiClient } from '../../../../electron/core/api/client.ts';
import { PartnerHttp } from '../../../../electron/core/api/http.ts';
import { firstLine, startTestSandbox, testClient, type TestSandbox } from './helpers.ts';

let sandbox: TestSandbox;

beforeAll(async () => {
  sandbox = await startTestSandbox();
});

afterAll(async () => {
  await sandbox?.stop();
});

describe('error formats from the sandbox', () => {
  it('V2 format: a refused token is kind unauthorized, not retried', async () => {
    const { client, attempts } = testClient(sandbox, { token: 'not-a-valid-token' });
    await expect(client.lines.list()).rejects.toMatchObject({
      name: 'PartnerApiError',
      kind: 'unauthorized',
      status: 401,
      code: 'unauthorized',
      retryable: false,
    });
    expect(attempts).toHaveLength(1);
  });

  it('V2 format: validation with the field named in the message', async () => {
    const { client } = testClient(sandbox);
    const line = await firstLine(client);
    const error = await client.chats
      .create({ line, participants: ['+16285550999'], text: '' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'validation', status: 422, code: 'invalid_params' });
    expect((error as Error).message).toContain('message.text');
  });

  it('contact format: 422 VALIDATION_ERROR with the reason as message', async () => {
    const { client } = testClient(sandbox);
    const error = await client.contacts.create({ company: 'No name at all' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'validation',
      status: 422,
      code: 'VALIDATION_ERROR',
      retryable: false,
    });
    expect((error as Error).message).toMatch(/first_name/);
  });

  it('V3 envelope: numeric code as a string, trace id, doc url', async () => {
    const http = new PartnerHttp({ baseUrl: sandbox.url, token: sandbox.token });
    const raw = (headers: Record<string, string>, path = '/chats') =>
      http.request({
        method: 'GET',
        prefix: '/api/partner/v3',
        path,
        headers,
        schema: z.unknown(),
      });
    const unauthorized = await raw({}).catch((e: unknown) => e);
    expect(unauthorized).toMatchObject({ kind: 'unauthorized', status: 401, code: '2004', retryable: false });
    expect(unauthorized).toHaveProperty('traceId', expect.stringMatching(/\S/));
    expect(unauthorized).toHaveProperty('docUrl', expect.stringContaining('2004'));
    // A V3 path the sandbox does not offer: feature not available.
    await expect(raw({ authorization: `Bearer ${sandbox.token}` }, '/blocked_handles')).rejects.toMatchObject(
      {
        kind: 'forbidden',
        status: 403,
        code: '2011',
      },
    );
  });

  it('refuses impossible input before sending anything', async () => {
    const { client, attempts } = testClient(sandbox);
    await expect(client.chats.list('not a number')).rejects.toMatchObject({
      kind: 'validation',
      code: 'invalid_phone_number',
    });
    await expect(client.messages.send(1, { text: 'x', idempotencyKey: 'has spaces' })).rejects.toMatchObject({
      code: 'invalid_idempotency_key',
    });
    await expect(
      client.messages.send(1, { text: 'x', files: [{ path: '/no/such/file.png' }] }),
    ).rejects.toMatchObject({
      code: 'attachment_rejected',
    });
    await expect(client.chats.get(Number.NaN)).rejects.toMatchObject({ code: 'invalid_id' });
    expect(attempts).toHaveLength(0);
  });

  it('never puts the token in an error', async () => {
    const { client } = testClient(sandbox);
    const error = await client.chats.get(999_999).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'not_found', status: 404 });
    expect(JSON.stringify(error)).not.toContain(sandbox.token);
    expect(String((error as Error).stack)).not.toContain(sandbox.token);
  });
});

describe('tolerant parsing over HTTP', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    // A service that is newer than our spec: extra fields, new enum values, string ids.
    const routes: Record<string, unknown> = {
      '/api/partner/v2/phone_numbers': {
        data: [
          {
            id: '10',
            phone_number: '+14155550100',
            forwarding_number: null,
            response_rate: 5,
            region: 'us-west',
          },
        ],
      },
      '/api/partner/v2/chats/7': {
        data: {
          id: '7',
          display_name: 'Ana',
          service: 'SatelliteSMS',
          group: false,
          message_count: 1,
          chat_handles: [
            {
              id: 1,
              phone_number: '+15105550101',
              service: 'SatelliteSMS',
              joined_at: '2025-03-01 10:00:00 +0000',
            },
          ],
          archived: true,
        },
      },
      '/api/partner/v2/chats/7/chat_messages/9': {
        data: {
          id: 9,
          text: 'hi',
          sent_at: '2025-03-01T10:00:00+02:00',
          delivered_at: null,
          delivery_status: 'queued_at_carrier',
          is_read: false,
          sent_from: '+14155550100',
          chat_handle_id: '1',
          effects: ['confetti'],
        },
      },
    };
    server = createServer((request, response) => {
      const body = routes[request.url?.split('?')[0] ?? ''];
      response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          body ?? { errors: [{ status: 404, code: 'not_found', title: 'Not Found', detail: 'nope' }] },
        ),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('accepts unknown fields, unknown enum values, string ids and both timestamp forms', async () => {
    const client = new PartnerApiClient({ baseUrl, token: 'tolerant-token' });
    expect(await client.lines.list()).toEqual([
      { id: 10, phone_number: '+14155550100', forwarding_number: null, response_rate: 5, user: null },
    ]);
    const chat = await client.chats.get(7);
    expect(chat).toMatchObject({
      id: 7,
      service: 'SatelliteSMS',
      chat_handles: [{ joined_at: '2025-03-01 10:00:00 +0000' }],
    });
    const message = await client.messages.get(7, 9);
    expect(message).toMatchObject({
      delivery_status: 'queued_at_carrier',
      chat_handle_id: 1,
      attachments: [],
      reactions: [],
    });
  });
});
