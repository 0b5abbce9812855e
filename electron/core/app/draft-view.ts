/**
 * A chat's draft as the renderer gets it back (reload, switching chats, undo send, editing a
 * scheduled message): all of it — text, staged files, links and the V3 options — with the empty
 * parts left out.
 */
import { stagedView } from '../../../shared/contract/staged.ts';
import type { Draft } from '../../../shared/contract/views.ts';
import type { DraftOptions } from '../../../shared/domain.ts';
import type { SendOptions } from '../store/send-options.ts';
import type { ServiceSession as Session } from '../session.ts';
import type { DraftExtras } from '../store/drafts-repo.ts';

export function draftView(
  session: Session,
  draft: { text: string; stagedIds: readonly string[] } & DraftExtras,
): Draft {
  const urls = draft.attachmentUrls ?? [];
  return {
    text: draft.text,
    attachments: draft.stagedIds.flatMap((id) => {
      const file = session.staging.get(id);
      return file ? [stagedView(file)] : [];
    }),
    ...(urls.length > 0 ? { attachmentUrls: urls } : {}),
    ...draft.options,
  };
}

/**
 * A waiting send's options as a draft holds them: its reply target by the message's key again
 * (the send named it by its V3 id), dropped when that message is no longer stored.
 */
export function draftOptionsOf(session: Session, options: SendOptions | null): DraftOptions {
  if (!options) return {};
  const { replyTo, effect, preferredService } = options;
  const localId = replyTo ? session.store.remoteIds.find('message', replyTo.messageId) : undefined;
  const target = localId === undefined ? undefined : session.store.messages.byId(localId);
  return {
    ...(target && replyTo ? { replyTo: { messageKey: target.key, partIndex: replyTo.partIndex } } : {}),
    ...(effect ? { effect } : {}),
    ...(preferredService ? { preferredService } : {}),
  };
}
