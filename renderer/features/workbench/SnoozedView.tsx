import { AlarmClock, AlarmClockOff, BellRing, MessageSquareReply } from 'lucide-react';
import type { SnoozedChat } from '../../../shared/contract/views.ts';
import { selectChat } from '../../actions/chats.ts';
import { clearSnooze } from '../../actions/scheduled.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { useStore } from '../../store/index.ts';
import { formatWhen } from './schedule-format.ts';
import { WaitingRow } from './WaitingRow.tsx';

/** Snoozed conversations with when they come back, and those just back from a snooze. */
export function SnoozedView() {
  const { snoozed, woken } = useStore((s) => s.snoozes);
  return (
    <div className="page snoozed-page">
      <header className="page-header">
        <h1>Snoozed</h1>
        <p className="muted">
          A snoozed conversation is out of the inbox until its time or the customer’s reply, whichever comes
          first. Snoozes come back only while Parley is running.
        </p>
      </header>
      {woken.length > 0 && (
        <section aria-labelledby="snooze-back">
          <h2 id="snooze-back">Back in the inbox</h2>
          <ul className="waiting-list" aria-label="Back from snooze">
            {woken.map((entry) => (
              <SnoozeRow key={entry.chat.id} entry={entry} />
            ))}
          </ul>
        </section>
      )}
      {snoozed.length === 0 && woken.length === 0 ? (
        <EmptyState icon={<AlarmClock size={26} />} title="Nothing snoozed">
          Snooze a conversation from its header to hide it until later.
        </EmptyState>
      ) : (
        snoozed.length > 0 && (
          <ul className="waiting-list" aria-label="Snoozed conversations">
            {snoozed.map((entry) => (
              <SnoozeRow key={entry.chat.id} entry={entry} />
            ))}
          </ul>
        )
      )}
    </div>
  );
}

function SnoozeRow({ entry: { chat, snooze } }: { entry: SnoozedChat }) {
  const back = snooze.wokeAt !== null;
  return (
    <WaitingRow
      chat={chat}
      testId="snoozed-row"
      age={
        <>
          {back ? <BellRing size={13} aria-hidden="true" /> : <AlarmClock size={13} aria-hidden="true" />}
          <span>
            {back
              ? `Snoozed until ${formatWhen(snooze.until)} · back ${snooze.wokeBy === 'reply' ? 'on their reply' : 'on time'}`
              : `Until ${formatWhen(snooze.until)} or their reply`}
          </span>
        </>
      }
    >
      {!back && (
        <button type="button" className="button small ghost" onClick={() => void clearSnooze(chat.id)}>
          <AlarmClockOff size={14} aria-hidden="true" /> Unsnooze
        </button>
      )}
      <button type="button" className="button small primary" onClick={() => selectChat(chat.id)}>
        <MessageSquareReply size={14} aria-hidden="true" /> Open
      </button>
    </WaitingRow>
  );
}
