import { attachmentSrc, thumbnailSrc, viewerSrc } from '../../actions/resources.ts';
import { openAttachment } from '../../actions/attachments.ts';
import { revealMessage } from '../../actions/chats.ts';
import {
  copyText,
  deleteMessage,
  discardMessage,
  editMessage,
  retryMessage,
  sendAgain,
} from '../../actions/messages.ts';
import { toggleCustomReaction, toggleReaction } from '../../actions/reactions.ts';
import { openThread, startReply } from '../../actions/thread.ts';
import { openLink } from '../../actions/workspace.ts';
import type { MessageHandlers } from '../../components/message-handlers.ts';
import type { Message, ReactionKind } from '../../../shared/domain.ts';
import { getState } from '../../store/index.ts';
import { baseMediaType, THUMBNAIL_BOXES } from '../../../shared/contract/media.ts';
import { bubbleScale, viewerScale } from '../../lib/viewer-scale.ts';

/** What every bubble of the timeline does when the agent acts on it: the same for all, made once. */
export const TIMELINE_MESSAGE_HANDLERS: MessageHandlers = {
  srcOf: attachmentSrc,
  thumbnailOf: (a) => {
    const scale = bubbleScale(window.devicePixelRatio);
    const box = THUMBNAIL_BOXES.bubble;
    return { src: thumbnailSrc(a, scale), cover: { width: box.width * scale, height: box.height * scale } };
  },
  onView: (a, kind) =>
    getState().setViewer({
      url: attachmentSrc(a),
      filename: a.filename,
      kind,
      // An animation is drawn as it is (its copy would be one frame).
      picture:
        kind === 'image' && baseMediaType(a.mimeType) !== 'image/gif'
          ? viewerSrc(a, viewerScale(window.devicePixelRatio, window.innerHeight))
          : undefined,
    }),
  onOpen: openAttachment,
  onReact: (m: Message, kind: ReactionKind) => void toggleReaction(m, kind),
  onStartEdit: (m) => getState().setEditing({ key: m.key, chatId: m.chatId }),
  onSaveEdit: (m, text) => {
    getState().setEditing(null);
    void editMessage(m.key, text);
  },
  onCancelEdit: () => getState().setEditing(null),
  onDelete: (m) => void deleteMessage(m.key),
  onCopy: (text) => void copyText(text),
  onRetry: (key) => void retryMessage(key),
  onDiscard: (key) => void discardMessage(key),
  onSendAgain: (m) => void sendAgain(m),
  onReply: (m, author) => startReply(m, author),
  onOpenThread: (m) => void openThread(m),
  onRevealQuoted: (m) => {
    const quoted = m.replyTo
      ? getState().timelines[m.chatId]?.messages.find((x) => x.v3Id === m.replyTo?.messageId)
      : undefined;
    if (quoted) void revealMessage(m.chatId, quoted.key);
    else void openThread(m);
  },
  onCustomReact: (m, emoji) => void toggleCustomReaction(m, emoji),
  onOpenLink: (url) => void openLink(url).catch(() => undefined),
};
