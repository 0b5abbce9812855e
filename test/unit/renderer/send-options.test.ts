/** What the next message can carry besides its words (effects, the service) and what stops it (standing). */
import { describe, expect, it } from 'vitest';
import { canUseEffects, effectLabel } from '../../../renderer/lib/effects.ts';
import { serviceOptions } from '../../../renderer/lib/service-choice.ts';
import { sendingWarning, sendPermission, standingText } from '../../../renderer/lib/standing.ts';
import { chat } from './fixtures.ts';

describe('effects', () => {
  it('labels a received effect by its name, aliases included', () => {
    expect(effectLabel({ type: 'screen', name: 'confetti' })).toBe('Sent with Confetti');
    expect(effectLabel({ type: 'screen', name: 'love' })).toBe('Sent with Hearts');
    expect(effectLabel({ type: 'bubble', name: 'invisible' })).toBe('Sent with Invisible ink');
    expect(effectLabel({ type: 'bubble', name: 'new_one' })).toBe('Sent with new one');
    expect(effectLabel(null)).toBeNull();
  });

  it('are for iMessage chats only, and say why not otherwise', () => {
    expect(canUseEffects(chat({ service: 'iMessage' }))).toEqual({ allowed: true });
    expect(canUseEffects(chat({ service: 'SMS' }))).toEqual({
      allowed: false,
      reason: 'Effects are shown on iMessage only',
    });
  });
});

describe('the service choice', () => {
  it('where the workspace cannot choose, allows only automatic, saying why', () => {
    const options = serviceOptions(chat(), false);
    expect(options.map((o) => o.permission.allowed)).toEqual([true, false, false, false]);
    expect(options[1]?.permission).toMatchObject({ reason: expect.stringMatching(/V3 workspace/) });
  });

  it('where it can, refuses SMS and RCS to an email address', () => {
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
    const options = serviceOptions(byEmail, true);
    expect(options.map((o) => o.permission.allowed)).toEqual([true, true, false, false]);
    expect(serviceOptions(chat(), true).every((o) => o.permission.allowed)).toBe(true);
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

  it('words each status, and one not reported', () => {
    expect(standingText('AT_RISK')).toBe('At risk');
    expect(standingText(null)).toBe('Not reported');
  });
});
