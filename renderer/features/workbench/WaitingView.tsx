import { Archive, Clock, MessageSquareReply, PartyPopper } from 'lucide-react';
import { isOverdue } from '../../../shared/workbench.ts';
import { selectChat, setChatFlags } from '../../actions/chats.ts';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { useClock } from '../../hooks/use-clock.ts';
import { chatTitle } from '../../lib/chat-presentation.ts';
import { formatAge } from '../../lib/format.ts';
import { useStore } from '../../store/index.ts';
import { WaitingRow } from './WaitingRow.tsx';

/** Conversations whose last message is the customer's, the longest wait first. */
export function WaitingView() {
  const waiting = useStore((s) => s.waiting);
  const loaded = useStore((s) => s.waitingLoaded);
  const threshold = useStore((s) => s.workbenchSettings.overdueMinutes);
  const now = useClock();
  const overdue = waiting.filter((w) => isOverdue(w.since, now, threshold)).length;

  return (
    <div className="page waiting-page">
      <header className="page-header">
        <h1>Waiting on you</h1>
        <p className="muted">
          {waiting.length === 0
            ? 'Nobody is waiting for an answer.'
            : `${waiting.length} ${waiting.length === 1 ? 'conversation' : 'conversations'} where the customer spoke last, longest wait first${
                threshold > 0 ? ` · ${overdue} over ${threshold} min` : ''
              }.`}
        </p>
      </header>
      {!loaded ? (
        <Spinner label="Loading" />
      ) : waiting.length === 0 ? (
        <EmptyState icon={<PartyPopper size={26} />} title="All caught up">
          Every conversation has your answer or is archived.
        </EmptyState>
      ) : (
        <ul className="waiting-list" aria-label="Conversations waiting on you">
          {waiting.map(({ chat, since }) => {
            const late = isOverdue(since, now, threshold);
            const title = chatTitle(chat);
            return (
              <WaitingRow
                key={chat.id}
                chat={chat}
                overdue={late}
                age={
                  <>
                    <Clock size={13} aria-hidden="true" />
                    <span>
                      {late && <strong className="overdue-label">Overdue · </strong>}
                      waiting {formatAge(now - since)}
                    </span>
                  </>
                }
              >
                <button type="button" className="button small primary" onClick={() => selectChat(chat.id)}>
                  <MessageSquareReply size={14} aria-hidden="true" /> Reply
                  <span className="visually-hidden"> to {title}</span>
                </button>
                <button
                  type="button"
                  className="button small"
                  onClick={() => void setChatFlags(chat.id, { archived: true })}
                >
                  <Archive size={14} aria-hidden="true" /> Archive
                  <span className="visually-hidden"> {title}</span>
                </button>
              </WaitingRow>
            );
          })}
        </ul>
      )}
    </div>
  );
}
