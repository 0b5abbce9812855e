import { forwardRef, type HTMLAttributes } from 'react';
import { loadOlder } from '../../actions/messages.ts';
import { Spinner } from '../../components/EmptyState.tsx';

export interface HeaderContext {
  chatId: number;
  loadingOlder: boolean;
  complete: boolean;
  olderError: string | null;
}

/** The message log: role=log, not live (one separate polite region announces new inbound messages). */
const LogList = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function LogList(props, ref) {
  return <div {...props} ref={ref} role="log" aria-live="off" aria-label="Messages" />;
});

function HistoryHeader({ context }: { context?: HeaderContext }) {
  if (!context) return null;
  if (context.loadingOlder)
    return (
      <div className="timeline-edge">
        <Spinner label="Loading older messages" /> Loading older messages…
      </div>
    );
  if (context.olderError)
    return (
      <div className="timeline-edge is-error" role="alert">
        Older messages could not be loaded: {context.olderError}{' '}
        <button type="button" className="link-button" onClick={() => void loadOlder(context.chatId)}>
          Try again
        </button>
      </div>
    );
  if (context.complete) return <div className="timeline-edge">Beginning of the conversation</div>;
  return <div className="timeline-edge" style={{ height: 32 }} />;
}

/** The timeline list's own parts: the log element, the history edge above, room below. */
export const TIMELINE_COMPONENTS = {
  List: LogList,
  Header: HistoryHeader,
  Footer: () => <div style={{ height: 28 }} />,
};
