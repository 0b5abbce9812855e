import { describe, expect, it } from 'vitest';
import { canDelete, EDIT_WINDOW_MS, editAllowance } from '../../../renderer/lib/edits.ts';
import { message } from './fixtures.ts';

const WINDOW = { editWindow: true };
const NO_WINDOW = { editWindow: false };

describe('editing a message (one rule, with the service’s window where the workspace has one)', () => {
  const sentAt = Date.UTC(2026, 10, 20, 12, 0);
  const sent = message({ fromMe: true, id: 5, sentAt, text: 'On my way' });
  const iMessage = { service: 'iMessage' };

  it('lets agents edit their own sent text, never SMS, and says why not otherwise', () => {
    expect(editAllowance(sent, iMessage, NO_WINDOW, sentAt).permission).toEqual({ allowed: true });
    for (const limits of [WINDOW, NO_WINDOW]) {
      expect(editAllowance(sent, { service: 'SMS' }, limits, sentAt)).toEqual({
        permission: { allowed: false, reason: 'SMS messages cannot be edited' },
        note: null,
      });
      expect(editAllowance(message({ sentAt }), iMessage, limits, sentAt).permission).toEqual({
        allowed: false,
        reason: 'Only messages you sent can be edited',
      });
      expect(editAllowance({ ...sent, id: null }, iMessage, limits, sentAt).permission).toEqual({
        allowed: false,
        reason: 'Wait until the message is sent to edit it',
      });
      expect(editAllowance({ ...sent, text: '  ' }, iMessage, limits, sentAt).permission).toEqual({
        allowed: false,
        reason: 'Only text can be edited',
      });
    }
  });

  it('with the window: up to 5 edits within 15 minutes, saying how many are left and until when', () => {
    const fresh = editAllowance(sent, iMessage, WINDOW, sentAt + 60_000);
    expect(fresh.permission).toEqual({ allowed: true });
    expect(fresh.note).toMatch(/^Up to 5 edits left, until \S/);
    expect(editAllowance({ ...sent, editedAt: sentAt + 1 }, iMessage, WINDOW, sentAt + 60_000).note).toMatch(
      /^Up to 4 edits/,
    );
    expect(editAllowance(sent, iMessage, WINDOW, sentAt + EDIT_WINDOW_MS)).toEqual({
      permission: { allowed: false, reason: 'Messages can be edited within 15 minutes of sending' },
      note: null,
    });
  });

  it('without the window: no limit in time, and nothing to note', () => {
    expect(editAllowance(sent, iMessage, NO_WINDOW, sentAt + 86_400_000)).toEqual({
      permission: { allowed: true },
      note: null,
    });
  });

  it('a message refused by the basic rules is refused before the window is counted', () => {
    expect(editAllowance({ ...sent, fromMe: false }, iMessage, WINDOW, sentAt + EDIT_WINDOW_MS)).toEqual({
      permission: { allowed: false, reason: 'Only messages you sent can be edited' },
      note: null,
    });
  });
});

describe('deleting a message', () => {
  const sent = message({ fromMe: true, id: 5 });
  it('deletes own sent messages; unsent ones are discarded instead', () => {
    expect(canDelete(sent)).toEqual({ allowed: true });
    expect(canDelete({ ...sent, id: null, state: 'failed' })).toMatchObject({ reason: /Discard/ });
    expect(canDelete({ ...sent, id: null, state: 'sending' })).toMatchObject({ reason: /Wait until/ });
    expect(canDelete(message())).toMatchObject({ allowed: false });
  });
});
