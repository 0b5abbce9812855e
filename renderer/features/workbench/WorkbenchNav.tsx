import { AlarmClock, Hourglass, MessageSquareText } from 'lucide-react';
import { isOverdue } from '../../../shared/workbench.ts';
import { useClock } from '../../hooks/use-clock.ts';
import { getState, useStore } from '../../store/index.ts';
import { NavItem } from '../shell/NavItem.tsx';

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
      <NavItem
        icon={Hourglass}
        label="Waiting on you"
        active={view === 'waiting'}
        onClick={() => getState().setView('waiting')}
      >
        {waiting.length > 0 && (
          <span
            className={`nav-count${overdue ? ' is-overdue' : ''}`}
            aria-label={`${waiting.length} waiting${overdue ? ', some overdue' : ''}`}
          >
            {waiting.length}
          </span>
        )}
      </NavItem>
      <NavItem
        icon={MessageSquareText}
        label="Canned replies"
        active={view === 'canned'}
        onClick={() => getState().setView('canned')}
      />
      <NavItem
        icon={AlarmClock}
        label="Snoozed"
        active={view === 'snoozed'}
        onClick={() => getState().setView('snoozed')}
      >
        {snoozed > 0 && (
          <span className="nav-count" aria-label={`${snoozed} snoozed`}>
            {snoozed}
          </span>
        )}
      </NavItem>
    </>
  );
}
