import { AlarmClock, Hourglass, MessageSquareText } from 'lucide-react';
import { isOverdue } from '../../../shared/workbench.ts';
import { useClock } from '../../hooks/use-clock.ts';
import { getState, useStore } from '../../store/index.ts';

/** The sidebar's workbench entries: Waiting on you (with its count), Canned replies, Snoozed. */
export function WorkbenchNav() {
  const view = useStore((s) => s.view);
  const waiting = useStore((s) => s.waiting);
  const threshold = useStore((s) => s.workbenchSettings.overdueMinutes);
  const now = useClock();
  const overdue = waiting.some((w) => isOverdue(w.since, now, threshold));
  const snoozed = useStore((s) => s.snoozes.snoozed.length);
  return (
    <>
      <li>
        <button
          type="button"
          className={`nav-item${view === 'waiting' ? ' is-active' : ''}`}
          aria-current={view === 'waiting' ? 'page' : undefined}
          onClick={() => getState().setView('waiting')}
        >
          <Hourglass size={16} aria-hidden="true" />
          <span>Waiting on you</span>
          {waiting.length > 0 && (
            <span
              className={`nav-count${overdue ? ' is-overdue' : ''}`}
              aria-label={`${waiting.length} waiting${overdue ? ', some overdue' : ''}`}
            >
              {waiting.length}
            </span>
          )}
        </button>
      </li>
      <li>
        <button
          type="button"
          className={`nav-item${view === 'canned' ? ' is-active' : ''}`}
          aria-current={view === 'canned' ? 'page' : undefined}
          onClick={() => getState().setView('canned')}
        >
          <MessageSquareText size={16} aria-hidden="true" />
          <span>Canned replies</span>
        </button>
      </li>
      <li>
        <button
          type="button"
          className={`nav-item${view === 'snoozed' ? ' is-active' : ''}`}
          aria-current={view === 'snoozed' ? 'page' : undefined}
          onClick={() => getState().setView('snoozed')}
        >
          <AlarmClock size={16} aria-hidden="true" />
          <span>Snoozed</span>
          {snoozed > 0 && (
            <span className="nav-count" aria-label={`${snoozed} snoozed`}>
              {snoozed}
            </span>
          )}
        </button>
      </li>
    </>
  );
}
