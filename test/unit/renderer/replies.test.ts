import { describe, expect, it } from 'vitest';
import { effectLabel } from '../../../renderer/lib/effects.ts';
import {
  canReply,
  optimisticSendFields,
  quoteText,
  repliedMessage,
  replyCount,
} from '../../../renderer/lib/replies.ts';
import { message } from './fixtures.ts';

describe('replies and threads', () => {
  const root = message({ v3Id: 'root-uuid', text: 'Is the order ready?' });
  const reply = message({
    v3Id: 'reply-uuid',
    replyTo: { messageId: 'root-uuid', partIndex: 0 },
    text: 'Yes',
  });

  it('finds the quoted message and counts a thread among loaded messages', () => {
    expect(repliedMessage(reply, [root, reply])).toBe(root);
    expect(repliedMessage(reply, [reply])).toBeNull();
    expect(replyCount(root, [root, reply])).toBe(1);
    expect(replyCount(message(), [root, reply])).toBe(0);
  });

  it('quotes on one line, shortened, and names attachments when there is no text', () => {
    expect(quoteText(message({ text: 'a\n  b' }))).toBe('a b');
    expect(quoteText(message({ text: 'x'.repeat(200) }), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(
      quoteText(
        message({
          text: '',
          attachments: [{ id: 'a', url: '', filename: 'f', mimeType: 'image/png', size: 1 }],
        }),
      ),
    ).toBe('An attachment');
  });

  it('replying needs a message the service accepted (whether the workspace has replies is its capability)', () => {
    expect(canReply(root)).toEqual({ allowed: true });
    expect(canReply(message({ v3Id: undefined }))).toEqual({
      allowed: false,
      reason: 'Wait until the message is sent to reply to it',
    });
  });
});

describe('the optimistic bubble of a send', () => {
  it('quotes the message it answers and shows its effect from the first frame', () => {
    const question = message({ key: 'q', v3Id: 'v3-question' });
    const fields = optimisticSendFields(
      { replyTo: { messageKey: 'q' }, effect: { type: 'screen', name: 'confetti' } },
      [message(), question],
    );
    expect(fields).toEqual({
      replyTo: { messageId: 'v3-question', partIndex: 0 },
      effect: { type: 'screen', name: 'confetti' },
    });
    expect(repliedMessage(fields, [question])).toBe(question);
    expect(effectLabel(fields.effect)).not.toBeNull();
  });

  it('adds nothing for a plain send, or a reply to a message not loaded or not accepted yet', () => {
    expect(optimisticSendFields({}, [message()])).toEqual({});
    expect(optimisticSendFields({ replyTo: { messageKey: 'gone' } }, [message()])).toEqual({});
    const unsent = message({ key: 'u', id: null });
    expect(optimisticSendFields({ replyTo: { messageKey: 'u' } }, [unsent])).toEqual({});
  });
});
