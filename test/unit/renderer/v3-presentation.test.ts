import { describe, expect, it } from 'vitest';
import {
  apiVersionOf,
  canCustomReact,
  canReply,
  canUseEffects,
  editAllowance,
  effectLabel,
  failurePresentation,
  isSingleEmoji,
  linkCard,
  optimisticV3Fields,
  quoteText,
  repliedMessage,
  replyCount,
  sendingWarning,
  sendPermission,
  serviceOptions,
  v3DeliveryLabel,
  V3_EDIT_WINDOW_MS,
} from '../../../renderer/lib/v3-presentation.ts';
import { chat, message } from './fixtures.ts';

describe('failed messages in words', () => {
  it('an opt-out says so and offers no way to send again', () => {
    const shown = failurePresentation(
      message({ fromMe: true, state: 'failed', failure: { code: '2024', reason: 'opted out' } }),
    );
    expect(shown).toMatchObject({
      title: 'The recipient asked you to stop messaging them',
      code: '2024',
      action: 'none',
    });
  });

  it('a transient delivery failure offers a new send (a fresh key), with the service’s hint', () => {
    const shown = failurePresentation(
      message({ fromMe: true, state: 'failed', failure: { code: '3001', reason: null } }),
    );
    expect(shown).toMatchObject({
      title: 'Delivery failed — send again',
      action: 'send-again',
      code: '3001',
    });
    expect(shown?.hint).toBe('The service had a connection problem');
  });

  it('an unknown code keeps its code and the service’s reason', () => {
    const shown = failurePresentation(
      message({ fromMe: true, state: 'failed', failure: { code: '2099', reason: 'Something new' } }),
    );
    expect(shown).toMatchObject({
      title: 'Not delivered (code 2099)',
      hint: 'Something new',
      action: 'none',
    });
  });

  it('a send accepted and then failed with no reason known (seen by a poll) offers a new send', () => {
    const shown = failurePresentation(message({ id: 42, fromMe: true, state: 'failed', failure: null }));
    expect(shown).toMatchObject({ title: 'Not delivered', code: null, action: 'send-again' });
    expect(shown?.hint).toBe('The service did not say why');
    expect(v3DeliveryLabel(message({ id: 42, fromMe: true, state: 'failed' }))).toBe('Not delivered');
  });

  it('a send refused outright for an opt-out says so and offers no retry', () => {
    const refused = message({
      id: null,
      fromMe: true,
      state: 'failed',
      error: { code: '2024', message: 'Recipient asked you to stop messaging them', retryable: false },
    });
    expect(failurePresentation(refused)).toMatchObject({
      title: 'The recipient asked you to stop messaging them',
      code: '2024',
      action: 'none',
    });
  });

  it('a V2 outbox failure retries under its own key; a delivered message has nothing to show', () => {
    const failed = message({
      id: null,
      fromMe: true,
      state: 'failed',
      error: { code: 'invalid_input', message: 'Refused', retryable: false },
    });
    expect(failurePresentation(failed)).toMatchObject({ title: 'Refused', action: 'retry', code: null });
    expect(failurePresentation(message({ state: 'delivered' }))).toBeNull();
  });

  it('V3 states read as sent, read and failed; V2 states are left to the V2 wording', () => {
    expect(v3DeliveryLabel(message({ state: 'sent' }))).toBe('Sent');
    expect(v3DeliveryLabel(message({ state: 'read', readAt: null }))).toBe('Read');
    expect(v3DeliveryLabel(message({ state: 'read', readAt: Date.UTC(2026, 0, 1, 9, 5) }))).toMatch(
      /^Read \S/,
    );
    expect(v3DeliveryLabel(message({ state: 'failed', failure: { code: '2024', reason: null } }))).toBe(
      'The recipient asked you to stop messaging them',
    );
    expect(v3DeliveryLabel(message({ state: 'delivered' }))).toBeNull();
  });
});

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

  it('replying needs V3 and a message the service accepted', () => {
    expect(canReply(root, 'v3')).toEqual({ allowed: true });
    expect(canReply(root, 'v2')).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/V3 workspace/),
    });
    expect(canReply(message({ v3Id: undefined }), 'v3')).toMatchObject({ allowed: false });
  });

  it('a chat from V3 or a V3 workspace is V3; anything else is V2', () => {
    expect(apiVersionOf(chat({ apiVersion: 'v3' }))).toBe('v3');
    expect(apiVersionOf(chat(), { apiVersion: 'v3' })).toBe('v3');
    expect(apiVersionOf(chat())).toBe('v2');
  });
});

describe('effects', () => {
  it('labels a received effect by its name, aliases included', () => {
    expect(effectLabel({ type: 'screen', name: 'confetti' })).toBe('Sent with Confetti');
    expect(effectLabel({ type: 'screen', name: 'love' })).toBe('Sent with Hearts');
    expect(effectLabel({ type: 'bubble', name: 'invisible' })).toBe('Sent with Invisible ink');
    expect(effectLabel(null)).toBeNull();
  });

  it('are for iMessage on V3 only, and say why not otherwise', () => {
    expect(canUseEffects(chat({ service: 'iMessage' }), 'v3')).toEqual({ allowed: true });
    expect(canUseEffects(chat({ service: 'SMS' }), 'v3')).toEqual({
      allowed: false,
      reason: 'Effects are shown on iMessage only',
    });
    expect(canUseEffects(chat({ service: 'iMessage' }), 'v2')).toMatchObject({ allowed: false });
  });
});

describe('link cards', () => {
  it('come from a link part or a text that is only a URL, with the host', () => {
    expect(linkCard(message({ text: 'https://www.example.com/a?b=1' }))).toEqual({
      url: 'https://www.example.com/a?b=1',
      host: 'example.com',
    });
    expect(linkCard(message({ text: '', parts: [{ type: 'link', url: 'https://shop.test/x' }] }))).toEqual({
      url: 'https://shop.test/x',
      host: 'shop.test',
    });
  });

  it('not from text around a URL, nor from other schemes', () => {
    expect(linkCard(message({ text: 'see https://example.com' }))).toBeNull();
    expect(linkCard(message({ text: 'javascript:alert(1)' }))).toBeNull();
    expect(linkCard(message({ text: 'ftp://example.com/x' }))).toBeNull();
  });
});

describe('edits', () => {
  const sentAt = Date.UTC(2026, 10, 20, 12, 0);
  it('V3: up to 5 edits within 15 minutes, saying how many are left and until when', () => {
    const fresh = editAllowance({ sentAt, editedAt: null }, 'v3', sentAt + 60_000);
    expect(fresh.permission).toEqual({ allowed: true });
    expect(fresh.note).toMatch(/^Up to 5 edits left, until \S/);
    expect(editAllowance({ sentAt, editedAt: sentAt + 1 }, 'v3', sentAt + 60_000).note).toMatch(
      /^Up to 4 edits/,
    );
    expect(
      editAllowance({ sentAt, editedAt: null }, 'v3', sentAt + V3_EDIT_WINDOW_MS).permission,
    ).toMatchObject({
      allowed: false,
      reason: 'Messages can be edited within 15 minutes of sending',
    });
  });

  it('V2 keeps its own rules (no window, no note)', () => {
    expect(editAllowance({ sentAt, editedAt: null }, 'v2', sentAt + 86_400_000)).toEqual({
      permission: { allowed: true },
      note: null,
    });
  });
});

describe('the service choice', () => {
  it('V2 allows only automatic, saying why', () => {
    const options = serviceOptions(chat(), 'v2');
    expect(options.map((o) => o.permission.allowed)).toEqual([true, false, false, false]);
    expect(options[1]?.permission).toMatchObject({ reason: expect.stringMatching(/V3 workspace/) });
  });

  it('V3 refuses SMS and RCS to an email address', () => {
    const byEmail = chat({
      handles: [
        {
          id: 3,
          identifier: 'ana@example.com',
          service: 'iMessage',
          joinedAt: null,
          isMe: false,
          contactName: null,
        },
      ],
    });
    const options = serviceOptions(byEmail, 'v3');
    expect(options.map((o) => o.permission.allowed)).toEqual([true, true, false, false]);
    expect(serviceOptions(chat(), 'v3').every((o) => o.permission.allowed)).toBe(true);
  });
});

describe('reputation and health', () => {
  it('warns on an at-risk or critical line, then on the chat’s own health', () => {
    expect(
      sendingWarning(chat(), { phoneNumber: '+1', reputation: { status: 'AT_RISK', docUrl: null } }),
    ).toMatchObject({
      level: 'warning',
    });
    expect(
      sendingWarning(chat(), { phoneNumber: '+1', reputation: { status: 'CRITICAL', docUrl: 'https://d' } }),
    ).toMatchObject({
      level: 'critical',
      docUrl: 'https://d',
    });
    expect(
      sendingWarning(chat({ health: { status: 'AT_RISK', docUrl: null, updatedAt: null } }), null),
    ).toMatchObject({
      level: 'warning',
    });
    expect(
      sendingWarning(chat(), { phoneNumber: '+1', reputation: { status: 'HEALTHY', docUrl: null } }),
    ).toBeNull();
    expect(sendingWarning(chat(), null)).toBeNull();
  });

  it('an opted-out chat cannot be sent to, with the reason', () => {
    expect(
      sendPermission(chat({ health: { status: 'OPTED_OUT', docUrl: null, updatedAt: null } })),
    ).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/asked you to stop messaging them/),
    });
    expect(sendPermission(chat())).toEqual({ allowed: true });
  });
});

describe('custom reactions', () => {
  it('take exactly one emoji, modifiers and joiners included', () => {
    for (const emoji of ['🦄', '👍🏽', '👩‍💻', '❤️']) expect(isSingleEmoji(emoji), emoji).toBe(true);
    for (const other of ['', 'a', '🦄🦄', 'ok 👍']) expect(isSingleEmoji(other), other).toBe(false);
  });

  it('are for V3 workspaces', () => {
    expect(canCustomReact('v3')).toEqual({ allowed: true });
    expect(canCustomReact('v2')).toMatchObject({ allowed: false });
  });
});

describe('the optimistic bubble of a V3 send', () => {
  it('quotes the message it answers and shows its effect from the first frame', () => {
    const question = message({ key: 'q', v3Id: 'v3-question' });
    const fields = optimisticV3Fields(
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
    expect(optimisticV3Fields({}, [message()])).toEqual({});
    expect(optimisticV3Fields({ replyTo: { messageKey: 'gone' } }, [message()])).toEqual({});
    const unsent = message({ key: 'u', id: null });
    expect(optimisticV3Fields({ replyTo: { messageKey: 'u' } }, [unsent])).toEqual({});
  });
});
