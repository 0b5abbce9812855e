import { describe, expect, it } from 'vitest';
import { refuseOptedOut, v3SendOptions } from '../../../../electron/core/outbox/send-rules.ts';
import type { Chat, Message } from '../../../../shared/domain.ts';
import { chat as chatOf, message as messageOf } from '../../renderer/fixtures.ts';

const v3Chat = (partial: Partial<Chat> = {}) => chatOf({ apiVersion: 'v3', service: 'iMessage', ...partial });
const stored = (messages: Message[]) => (key: string) => messages.find((m) => m.key === key);

function refusal(run: () => unknown): { code: string; field?: string } {
  try {
    run();
  } catch (error) {
    return (error as { shape: { code: string; field?: string } }).shape;
  }
  throw new Error('expected a refusal');
}

describe('what a send may carry', () => {
  it('an opted-out chat refuses any send with opted_out; other chats take it', () => {
    const optedOut = chatOf({ health: { status: 'OPTED_OUT', docUrl: null, updatedAt: null } });
    expect(refusal(() => refuseOptedOut(optedOut))).toMatchObject({ code: 'opted_out', field: 'chatId' });
    expect(() =>
      refuseOptedOut(chatOf({ health: { status: 'AT_RISK', docUrl: null, updatedAt: null } })),
    ).not.toThrow();
    expect(() => refuseOptedOut(chatOf())).not.toThrow();
  });

  it('no options: nothing to carry, on V2 and V3 alike', () => {
    expect(v3SendOptions(chatOf(), {}, stored([]))).toBeNull();
    expect(v3SendOptions(v3Chat(), {}, stored([]))).toBeNull();
  });

  it('V3-only options on a V2 chat are unsupported, naming the option', () => {
    expect(refusal(() => v3SendOptions(chatOf(), { preferredService: 'SMS' }, stored([])))).toMatchObject({
      code: 'unsupported',
      field: 'preferredService',
    });
    expect(
      refusal(() => v3SendOptions(chatOf(), { effect: { type: 'screen', name: 'confetti' } }, stored([]))),
    ).toMatchObject({ code: 'unsupported', field: 'effect' });
  });

  it('an effect only on iMessage', () => {
    expect(
      refusal(() =>
        v3SendOptions(v3Chat({ service: 'SMS' }), { effect: { type: 'bubble', name: 'slam' } }, stored([])),
      ),
    ).toMatchObject({ code: 'unsupported', field: 'effect' });
  });

  it('a reply names a message of this chat the service knows, and carries its V3 id', () => {
    const root = messageOf({ chatId: 1, v3Id: 'root-uuid' });
    const unsent = messageOf({ chatId: 1, id: null });
    const elsewhere = messageOf({ chatId: 2, v3Id: 'other-uuid' });
    const messages = stored([root, unsent, elsewhere]);
    expect(
      v3SendOptions(
        v3Chat(),
        {
          replyTo: { messageKey: root.key },
          effect: { type: 'screen', name: 'confetti' },
          preferredService: 'iMessage',
        },
        messages,
      ),
    ).toEqual({
      replyTo: { messageId: 'root-uuid', partIndex: 0 },
      effect: { type: 'screen', name: 'confetti' },
      preferredService: 'iMessage',
    });
    expect(
      refusal(() => v3SendOptions(v3Chat(), { replyTo: { messageKey: unsent.key } }, messages)),
    ).toMatchObject({
      code: 'invalid_input',
      field: 'replyTo.messageKey',
    });
    expect(
      refusal(() => v3SendOptions(v3Chat(), { replyTo: { messageKey: elsewhere.key } }, messages)),
    ).toMatchObject({
      code: 'not_found',
    });
  });
});
