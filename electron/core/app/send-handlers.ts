import { toHandle } from '../../../shared/phone.ts';
import { takeDraft } from './composer-draft.ts';
import type { Handlers } from './dispatch.ts';
import { UserFacingError } from './errors.ts';
import type { HandlerContext } from './handler-context.ts';

type SendMethod = 'chats.start' | 'messages.send' | 'messages.retry';

/**
 * Sending from the main window: a new conversation, the composer's message, Send again. A message to
 * an existing chat passes the outbox's door (../outbox/send-door.ts) like every way out; the
 * composer's draft is cleared here, by the handler that took it. Inputs arrive validated.
 */
export function createSendHandlers(core: HandlerContext): Pick<Handlers, SendMethod> {
  const s = () => core.session;
  return {
    'chats.start': ({ lineId, recipients, displayName, text, stagedIds, attachmentUrls }) => {
      const handles = recipients.map((raw, i) => {
        const handle = toHandle(raw);
        if (!handle)
          throw new UserFacingError('invalid_input', `"${raw}" is not a phone number or email address`, {
            field: `recipients.${i}`,
          });
        return handle;
      });
      if (!s().store.lines.get(lineId))
        throw new UserFacingError('not_found', 'That line is not one of your organization’s', {
          field: 'lineId',
        });
      return s().outbox.startChat({
        lineId,
        recipients: handles,
        displayName: displayName ?? null,
        text,
        stagedIds,
        attachmentUrls,
      });
    },
    'messages.send': ({ chatId, clientKey, replyTo, effect, preferredService, ...content }) => ({
      key: takeDraft(s(), chatId, () =>
        s().sendDoor.send({
          origin: 'composer',
          chatId,
          ...content,
          ...(clientKey ? { clientKey } : {}),
          options: { replyTo, effect, preferredService },
        }),
      ),
    }),
    // Through the door's rules again (outbox/send-again.ts); a refusal crosses in its own shape.
    'messages.retry': ({ key }) => s().outbox.retry(key),
  };
}
