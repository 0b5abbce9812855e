/** A V3 page's records are made straight from the wire shape: the same as through the domain message. */
import { describe, expect, it } from 'vitest';
import { type V3LocalIds, v3MessageToDomain } from '../../../../../electron/core/api/v3/domain-map.ts';
import { v3MessageRecord, v3MessageRecords } from '../../../../../electron/core/api/v3/records.ts';
import { v3MessageSchema } from '../../../../../electron/core/api/v3/schemas.ts';
import { chatBody, messageBody } from './fixtures.ts';

/** One local integer per V3 id and kind, in the order they are first asked for. */
function localIds(): V3LocalIds {
  const maps = new Map<string, Map<string, number>>();
  const next = (kind: string) => (key: string) => {
    let map = maps.get(kind);
    if (!map) maps.set(kind, (map = new Map()));
    if (!map.has(key)) map.set(key, map.size + 1);
    return map.get(key) as number;
  };
  return {
    chat: next('chat'),
    message: next('message'),
    handle: next('handle'),
    reaction: next('reaction'),
    line: () => 7,
  };
}

const page = [
  messageBody,
  {
    ...messageBody,
    id: '8d7a9a52-3c1b-4bd9-9f7e-6a4c2e1d0b21',
    chat_id: undefined,
    is_from_me: true,
    from_handle: null,
    parts: [
      { type: 'link', value: 'https://example.invalid/a', reactions: [] },
      { type: 'text', value: 'second line', reactions: [] },
      { type: 'link', value: 'https://example.invalid/b', reactions: [] },
      { type: 'media', filename: 'x.png', mime_type: 'image/png', reactions: [] },
    ],
    delivery_status: 'read',
    sent_at: null,
    delivered_at: null,
    reply_to: null,
    effect: null,
  },
  {
    ...messageBody,
    id: '8d7a9a52-3c1b-4bd9-9f7e-6a4c2e1d0b22',
    parts: [{ type: 'text', value: 'reacted to', reactions: [messageBody.parts[0]?.reactions[1]] }],
    is_read: true,
    delivery_status: 'delivered',
    updated_at: null,
  },
].map((message) => v3MessageSchema.parse(message));

describe('a page of V3 messages as records', () => {
  it('given texts, links, media, reactions, replies and effects, then the records the domain mapping gives', () => {
    const viaDomain = page.map((message) =>
      v3MessageRecord(v3MessageToDomain(message, localIds(), { chatId: chatBody.id })),
    );
    const straight = page.flatMap((message) => v3MessageRecords(chatBody.id, [message], localIds()));
    expect(straight).toEqual(viaDomain);
    expect(straight[1]).toMatchObject({
      text: 'https://example.invalid/a\nsecond line\nhttps://example.invalid/b',
    });
    expect(straight[1]?.link).toBe('https://example.invalid/a');
    expect(straight[2]?.reactions).toMatchObject([{ kind: 'custom', customEmoji: '🏠', at: 0 }]);
  });
});
