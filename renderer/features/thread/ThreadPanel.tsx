import { MessagesSquare, X } from 'lucide-react';
import { closeThread } from '../../actions/thread.ts';
import { revealMessage } from '../../actions/chats.ts';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { effectLabel } from '../../lib/effects.ts';
import { quoteText } from '../../lib/replies.ts';
import { useStore } from '../../store/index.ts';

/** A thread beside the conversation: its originating message, then the replies, oldest first. */
export function ThreadPanel({ chatId }: { chatId: number }) {
  const thread = useStore((s) => (s.thread?.chatId === chatId ? s.thread : null));
  const handles = useStore((s) => s.chatsById[chatId]?.handles);
  if (!thread) return null;
  const nameOf = (identifier: string) =>
    handles?.find((h) => h.identifier === identifier)?.contactName ?? identifier;
  const [root, ...replies] = thread.messages;
  return (
    <aside className="thread-panel" aria-label="Thread">
      <div className="details-header">
        <h2>
          <MessagesSquare size={15} aria-hidden="true" /> Thread
        </h2>
        <button type="button" className="icon-button" aria-label="Close the thread" onClick={closeThread}>
          <X size={16} />
        </button>
      </div>
      {thread.status === 'loading' && <Spinner label="Loading the thread" />}
      {thread.status === 'error' && (
        <EmptyState tone="error" title="The thread could not be loaded">
          {thread.error}
        </EmptyState>
      )}
      {thread.status === 'ready' && (
        <ol className="thread-messages">
          {thread.messages.map((m) => {
            const effect = effectLabel(m.effect);
            return (
              <li
                key={m.key}
                className={`thread-message${m.fromMe ? ' is-outbound' : ''}${m === root ? ' is-root' : ''}`}
              >
                <button
                  type="button"
                  className="thread-message-button"
                  aria-label={`${m.fromMe ? 'You' : (m.senderName ?? nameOf(m.sender))}, ${formatDateTime(m.sentAt)}: ${quoteText(m, 200)}. Show in the conversation`}
                  onClick={() => void revealMessage(chatId, m.key)}
                >
                  <span className="thread-message-meta">
                    {m.fromMe ? 'You' : (m.senderName ?? nameOf(m.sender))} · {formatDateTime(m.sentAt)}
                  </span>
                  <span className="thread-message-text">{quoteText(m, 400)}</span>
                  {effect && <span className="effect-label">{effect}</span>}
                </button>
              </li>
            );
          })}
        </ol>
      )}
      {thread.status === 'ready' && replies.length === 0 && (
        <p className="muted thread-empty">No replies yet. Use Reply on a message to answer it here.</p>
      )}
    </aside>
  );
}
