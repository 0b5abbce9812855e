import { describe, expect, it } from 'vitest';
import { v3MessageBody } from '../../../../../electron/core/api/v3/outgoing.ts';

const text = (value: string) => ({ type: 'text' as const, value });

describe('V3 message content', () => {
  it('builds the body with parts, canonical effect, reply_to, preferred service and the idempotency key', () => {
    const body = v3MessageBody({
      parts: [text('See attached'), { type: 'media', attachment_id: 'att-1' }],
      effect: { type: 'screen', name: 'celebration' },
      replyTo: { messageId: 'm-0' },
      preferredService: 'RCS',
      idempotencyKey: 'job_42',
    });
    expect(body).toEqual({
      parts: [
        { type: 'text', value: 'See attached' },
        { type: 'media', attachment_id: 'att-1' },
      ],
      effect: { type: 'screen', name: 'sparkles' },
      reply_to: { message_id: 'm-0', part_index: 0 },
      preferred_service: 'RCS',
      idempotency_key: 'job_42',
    });
  });

  it.each([
    ['no parts', { parts: [] }, /at least one part/],
    ['an empty text', { parts: [text('')] }, /cannot be empty/],
    ['text over 10,000 characters', { parts: [text('x'.repeat(10_001))] }, /at most 10000/],
    ['two texts in a row', { parts: [text('a'), text('b')] }, /cannot follow each other/],
    [
      'a link beside another part',
      { parts: [text('look'), { type: 'link' as const, value: 'https://example.com' }] },
      /only part/,
    ],
    [
      'media by plain http',
      { parts: [{ type: 'media' as const, url: 'http://example.com/a.png' }] },
      /https/,
    ],
    [
      'more than 100 parts',
      {
        parts: Array.from({ length: 101 }, (_, i) =>
          i % 2 ? text('t') : { type: 'media' as const, attachment_id: `a${i}` },
        ),
      },
      /at most 100/,
    ],
    [
      'an unknown effect',
      { parts: [text('hi')], effect: { type: 'bubble' as const, name: 'confetti' } },
      /not a bubble effect/,
    ],
    ['a bad idempotency key', { parts: [text('hi')], idempotencyKey: 'has space' }, /idempotency key/],
  ])('refuses %s locally, before sending', (_name, message, expected) => {
    expect(() => v3MessageBody(message)).toThrow(expected);
  });

  it('normalizes a mention to E.164', () => {
    const body = v3MessageBody({
      parts: [{ type: 'text', value: 'hi', mention: { handle: '(415) 555-0123' } }],
    });
    expect(body.parts).toEqual([{ type: 'text', value: 'hi', mention: { handle: '+14155550123' } }]);
  });
});
