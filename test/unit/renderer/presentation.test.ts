import { describe, expect, it } from 'vitest';
import {
  chatTitle,
  initials,
  isUnread,
  previewText,
  typingText,
} from '../../../renderer/lib/chat-presentation.ts';
import { connectFieldOf, connectFailureText, contactFieldOf } from '../../../renderer/lib/errors.ts';
import { matchShortcut, neighbourId } from '../../../renderer/lib/keyboard.ts';
import { chat } from './fixtures.ts';

describe('chat presentation', () => {
  it('makes raw numbers in titles readable, preferring contact names', () => {
    expect(chatTitle(chat())).toBe('Ana Lima');
    expect(chatTitle(chat({ displayName: '+15105550100, Bo' }))).toBe('Ana Lima, Bo');
    expect(chatTitle(chat({ displayName: '+15105550199' }))).toBe('(510) 555-0199');
    expect(chatTitle(chat({ displayName: '' }))).toBe('Ana Lima');
  });

  it('previews with the sender', () => {
    const base = {
      text: 'On my way',
      fromMe: false,
      senderName: 'Ana Lima',
      at: 1,
      state: 'delivered',
      attachmentCount: 0,
    };
    expect(previewText(base, false)).toBe('On my way');
    expect(previewText(base, true)).toBe('Ana: On my way');
    expect(previewText({ ...base, fromMe: true }, true)).toBe('You: On my way');
    expect(previewText({ ...base, text: '', attachmentCount: 2 }, false)).toBe('2 attachments');
    expect(previewText(null, false)).toBe('No messages yet');
    expect(previewText({ ...base, senderName: '+15105550159' }, true)).toBe('(510) 555-0159: On my way');
  });

  it('says who is typing', () => {
    expect(typingText(chat(), [])).toBeNull();
    expect(typingText(chat(), ['+15105550100'])).toBe('Ana is typing…');
    expect(typingText(chat(), ['+15105550100', '+15105550111'])).toBe('Ana and (510) 555-0111 are typing…');
  });

  it('initials and unread', () => {
    expect(initials('Ana Lima')).toBe('AL');
    expect(initials('(510) 555-0100')).toBe('#');
    expect(isUnread({ unreadCount: 0, markedUnread: true })).toBe(true);
    expect(isUnread({ unreadCount: 0, markedUnread: false })).toBe(false);
  });
});

describe('errors to fields', () => {
  it('finds the contact field the service named', () => {
    expect(
      contactFieldOf({
        code: 'invalid_input',
        message: 'phone_number 555 is not a valid phone number',
        retryable: false,
      }),
    ).toBe('phoneNumber');
    expect(
      contactFieldOf({ code: 'invalid_input', message: 'user_email x is not a user', retryable: false }),
    ).toBe('ownerEmail');
    expect(contactFieldOf({ code: 'invalid_input', message: 'bad', retryable: false, field: 'email' })).toBe(
      'email',
    );
    expect(
      contactFieldOf({ code: 'invalid_input', message: 'At least one of …', retryable: false }),
    ).toBeNull();
  });

  it('gives each connect failure its own sentence and field', () => {
    const shape = (code: string, field?: string) => ({
      code,
      message: 'm',
      retryable: false,
      ...(field ? { field } : {}),
    });
    expect(connectFieldOf(shape('unauthorized'))).toBe('token');
    expect(connectFieldOf(shape('network'))).toBe('baseUrl');
    expect(connectFieldOf(shape('invalid_input', 'tokenHeader'))).toBe('tokenHeader');
    const texts = ['unauthorized', 'network', 'tls', 'not_found'].map((c) => connectFailureText(shape(c)));
    expect(new Set(texts).size).toBe(4);
  });
});

describe('keyboard', () => {
  const key = (
    k: string,
    mods: Partial<{ alt: boolean; shift: boolean; ctrl: boolean; meta: boolean }> = {},
  ) => ({
    key: k,
    altKey: mods.alt ?? false,
    shiftKey: mods.shift ?? false,
    ctrlKey: mods.ctrl ?? false,
    metaKey: mods.meta ?? false,
  });
  it('matches the platform modifier', () => {
    expect(matchShortcut(key('k', { ctrl: true }), false, true)).toBe('quickSwitcher');
    expect(matchShortcut(key('k', { ctrl: true }), true, false)).toBeNull();
    expect(matchShortcut(key('k', { meta: true }), true, false)).toBe('quickSwitcher');
    expect(matchShortcut(key('ArrowDown', { alt: true, shift: true }), false, true)).toBe('nextUnread');
    expect(matchShortcut(key('ArrowUp', { alt: true }), false, false)).toBe('previousChat');
  });

  it('leaves printable keys to text fields', () => {
    expect(matchShortcut(key('?'), false, false)).toBe('shortcuts');
    expect(matchShortcut(key('?'), false, true)).toBeNull();
    expect(matchShortcut(key('c'), false, true)).toBeNull();
    expect(matchShortcut(key('c'), false, false)).toBe('newChat');
  });

  it('finds neighbours, optionally only eligible ones', () => {
    expect(neighbourId([1, 2, 3], 2, 1)).toBe(3);
    expect(neighbourId([1, 2, 3], 3, 1)).toBeNull();
    expect(neighbourId([1, 2, 3], null, 1)).toBe(1);
    expect(neighbourId([1, 2, 3], null, -1)).toBe(3);
    expect(neighbourId([1, 2, 3, 4], 1, 1, (id) => id % 2 === 0 && id > 2)).toBe(4);
  });
});

describe('contact error text', () => {
  it('drops the service’s field name from the sentence shown beside that field', async () => {
    const { contactErrorText } = await import('../../../renderer/lib/errors.ts');
    expect(
      contactErrorText({
        code: 'invalid_input',
        message: 'user_email x@y.z is not a user',
        retryable: false,
      }),
    ).toBe('X@y.z is not a user');
    expect(
      contactErrorText({ code: 'invalid_input', message: 'email foo is not valid', retryable: false }),
    ).toBe('Foo is not valid');
  });
});
