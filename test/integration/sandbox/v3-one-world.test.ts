/** V3 contract: the demo organization answers on both versions, and both see one world. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, ISO, startHarness, TOKEN_A, UUID } from './harness.ts';
import type { ApiClient } from './http-clients.ts';
import { v3Client } from './v3-harness.ts';

let h: Harness;
let a: ApiClient;

beforeAll(async () => {
  h = await startHarness({ seed: 'demo' });
  a = v3Client(h.url, TOKEN_A);
  // This file walks every chat of the demo on both versions: more than the default burst.
  await h.control.ok('PUT', '/rate-limit', { per_second: 2000, burst: 2000 });
});
afterAll(() => h.stop());

async function allV3Chats(query: Record<string, string> = {}) {
  const chats = [];
  let cursor: string | null = null;
  do {
    const page = await a.get('/chats', { query: { limit: '7', ...query, ...(cursor ? { cursor } : {}) } });
    expect(page.status).toBe(200);
    chats.push(...page.body.chats);
    cursor = page.body.next_cursor;
  } while (cursor);
  return chats;
}

async function allV2Chats(line: string) {
  const chats = [];
  for (let page = 1; ; page++) {
    const response = await h.a.get('/chats', { query: { phone_number: line, per_page: 100, page } });
    chats.push(...response.body.data);
    if (page >= response.body.meta.total_pages) break;
  }
  return chats;
}

describe('one organization, two versions', () => {
  it('given the demo organization, then V3 lists the chats V2 lists, and migrate_to_v3 gives the ids V3 shows', async () => {
    const lines = await h.lines();
    const v3Chats = await allV3Chats();
    expect(new Set(v3Chats.map((c) => c.id)).size).toBe(v3Chats.length); // cursors never repeat a chat
    let migratable = 0;
    for (const line of lines) {
      const v2Chats = await allV2Chats(line.phone_number);
      const v3OfLine = await allV3Chats({ from: line.phone_number });
      for (const chat of v2Chats) {
        const migration = await h.a.get(`/chats/${chat.id}/migrate_to_v3`);
        if (migration.status === 422) {
          expect(chat.service === 'SMS' && chat.group).toBe(true);
          continue;
        }
        migratable++;
        expect(migration.body.data).toEqual({
          v3_chat_id: expect.stringMatching(UUID),
          v2_chat_id: chat.id,
          migrated: true,
        });
        const again = await h.a.get(`/chats/${chat.id}/migrate_to_v3`);
        expect(again.body).toEqual(migration.body);
        const v3Chat = v3OfLine.find((c) => c.id === migration.body.data.v3_chat_id);
        expect(v3Chat, `V2 chat ${chat.id} in V3`).toBeDefined();
        expect(v3Chat.service).toBe(chat.service);
        expect(v3Chat.is_group).toBe(chat.group);
        expect(v3Chat.handles.map((x: { handle: string }) => x.handle).sort()).toEqual(
          chat.chat_handles.map((x: { phone_number: string }) => x.phone_number).sort(),
        );
      }
    }
    expect(migratable).toBe(v3Chats.length);
    expect(migratable).toBeGreaterThan(0);
  });

  it('given a chat, then V3 shows it in the decided shape, and its messages newest first with the V2 texts', async () => {
    const [first] = (await a.get('/chats', { query: { limit: '1' } })).body.chats;
    const chat = (await a.get(`/chats/${first.id}`)).body;
    expect(chat).toEqual({
      id: first.id,
      display_name: chat.display_name,
      handles: expect.arrayContaining([
        expect.objectContaining({ is_me: true, status: 'active', id: expect.stringMatching(UUID) }),
      ]),
      is_group: expect.any(Boolean),
      service: expect.stringMatching(/^(iMessage|SMS|RCS)$/),
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      is_archived: false,
      health_status: {
        status: 'HEALTHY',
        doc_url: expect.any(String),
        updated_at: expect.stringMatching(ISO),
      },
    });
    const v2Id = (await h.control.ok('GET', `/v3-ids/${chat.id}`)).id;
    const v2Messages = (
      await h.a.get(`/chats/${v2Id}/chat_messages`, { query: { sort: 'desc', per_page: 5 } })
    ).body.data;
    const v3Messages = (await a.get(`/chats/${chat.id}/messages`, { query: { limit: '5' } })).body.messages;
    expect(v3Messages).toHaveLength(v2Messages.length);
    v3Messages.forEach(
      (
        m: { parts: Array<{ type: string; value?: string }>; is_from_me: boolean; delivery_status: string },
        i: number,
      ) => {
        const v2 = v2Messages[i];
        expect(
          m.parts
            .filter((p) => p.type === 'text')
            .map((p) => p.value)
            .join('\n'),
        ).toBe(v2.text);
        expect(m.parts.filter((p) => p.type === 'media')).toHaveLength(v2.attachments.length);
        const line = chat.handles.find((x: { is_me: boolean }) => x.is_me).handle;
        expect(m.is_from_me).toBe(v2.sent_from === line);
        if (!m.is_from_me) expect(m.delivery_status).toBe('received');
      },
    );
  });

  it('given a message sent through V2, then V3 shows the same message; one sent through V3 shows in V2', async () => {
    const [chat] = (await a.get('/chats', { query: { limit: '1' } })).body.chats;
    const v2Id = (await h.control.ok('GET', `/v3-ids/${chat.id}`)).id;
    const viaV2 = await h.a.post(`/chats/${v2Id}/chat_messages`, {
      json: { message: { text: 'sent through V2' } },
    });
    expect(viaV2.status).toBe(201);
    const viaV3 = await a.post(`/chats/${chat.id}/messages`, {
      json: { message: { parts: [{ type: 'text', value: 'sent through V3' }] } },
    });
    expect(viaV3.status).toBe(202);
    const v3Texts = (await a.get(`/chats/${chat.id}/messages`, { query: { limit: '2' } })).body.messages.map(
      (m: { parts: Array<{ value: string }> }) => m.parts[0]!.value,
    );
    expect(v3Texts).toEqual(['sent through V3', 'sent through V2']);
    const v2Texts = (
      await h.a.get(`/chats/${v2Id}/chat_messages`, { query: { sort: 'desc', per_page: 2 } })
    ).body.data.map((m: { text: string }) => m.text);
    expect(v2Texts).toEqual(['sent through V3', 'sent through V2']);
    const v2OfV3 = await h.control.ok('GET', `/v3-ids/${viaV3.body.message.id}`);
    expect(v2OfV3).toEqual({ kind: 'message', id: expect.any(Number) });
    expect((await h.a.get(`/chats/${v2Id}/chat_messages/${v2OfV3.id}`)).body.data.text).toBe(
      'sent through V3',
    );
  });
});
