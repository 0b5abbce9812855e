import { AlertTriangle, Reply, X } from 'lucide-react';
import type { Chat, Line } from '../../../shared/domain.ts';
import { cancelReply } from '../../actions/thread.ts';
import { openLink } from '../../actions/workspace.ts';
import { sendingWarning } from '../../lib/standing.ts';
import { useStore } from '../../store/index.ts';

/** Above the composer's box: the line's or chat's standing, and the message being replied to. */
export function ComposerNotices({ chat, line }: { chat: Chat; line: Line | null }) {
  const reply = useStore((s) => s.drafts[chat.id]?.replyTo ?? null);
  const warning = sendingWarning(chat, line);
  return (
    <>
      {warning && (
        <div className={`composer-standing is-${warning.level}`} role="note">
          <AlertTriangle size={14} aria-hidden="true" />
          <span>{warning.text}</span>
          {warning.docUrl && (
            <button
              type="button"
              className="link-button"
              onClick={() => void openLink(warning.docUrl as string).catch(() => undefined)}
            >
              Learn more
            </button>
          )}
        </div>
      )}
      {reply && (
        <div className="composer-reply" role="group" aria-label="Replying to">
          <Reply size={14} aria-hidden="true" />
          <span className="composer-reply-text">
            <span className="composer-reply-author">Replying to {reply.author}</span>
            <span className="composer-reply-quote">{reply.quote}</span>
          </span>
          <button
            type="button"
            className="icon-button small"
            aria-label="Cancel the reply"
            title="Cancel the reply"
            onClick={() => cancelReply(chat.id)}
          >
            <X size={13} />
          </button>
        </div>
      )}
    </>
  );
}
