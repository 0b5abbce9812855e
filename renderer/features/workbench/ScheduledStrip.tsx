import { Clock, Send, Undo2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ScheduledSend } from '../../../shared/contract/views.ts';
import {
  cancelHeld,
  changeHeld,
  editHeld,
  refreshScheduled,
  sendHeldNow,
  undoHeld,
} from '../../actions/scheduled.ts';
import { useStore } from '../../store/index.ts';
import { formatWhen } from './schedule-format.ts';
import { SEND_LATER_PRESETS, WhenMenu } from './WhenMenu.tsx';

const NONE: ScheduledSend[] = [];

/**
 * The chat's held-back messages, at the end of the thread: "Sending in 5 s — Undo" during the undo
 * grace period, "Scheduled for …" (edit — back into the composer, whole —, reschedule, send now,
 * cancel) for send later, and those
 * that fell due while Parley was closed, waiting for the agent.
 */
export function ScheduledStrip({ chatId }: { chatId: number }) {
  const items = useStore((s) => s.scheduled[chatId] ?? NONE);
  useEffect(() => void refreshScheduled(chatId), [chatId]);
  if (items.length === 0) return null;
  return (
    <ul className="scheduled-strip" aria-label="Messages not sent yet">
      {items.map((item) =>
        item.kind === 'grace' && !item.needsConfirmation ? (
          <GraceItem key={item.id} item={item} />
        ) : (
          <ScheduledItem key={item.id} item={item} />
        ),
      )}
    </ul>
  );
}

function GraceItem({ item }: { item: ScheduledSend }) {
  const [now, setNow] = useState(Date.now);
  // A countdown of its own: the shared clock ticks too rarely for seconds.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.ceil((item.dueAt - now) / 1000));
  return (
    <li className="scheduled-item is-grace" data-testid="held-message" data-kind="grace">
      <p className="scheduled-text">{item.text || attachmentsLabel(item)}</p>
      <div className="scheduled-meta">
        <span role="status">Sending in {seconds} s</span>
        <button type="button" className="button small" onClick={() => void undoHeld(item)}>
          <Undo2 size={14} aria-hidden="true" /> Undo
        </button>
      </div>
    </li>
  );
}

function ScheduledItem({ item }: { item: ScheduledSend }) {
  const [rescheduling, setRescheduling] = useState(false);
  return (
    <li
      className={`scheduled-item${item.needsConfirmation ? ' is-overdue' : ''}`}
      data-testid="held-message"
      data-kind={item.kind}
    >
      <p className="scheduled-text">{item.text || attachmentsLabel(item)}</p>
      <div className="scheduled-meta">
        <Clock size={14} aria-hidden="true" />
        {item.needsConfirmation ? (
          <span role="status">
            Was due {formatWhen(item.dueAt)} while Parley was not running — send it now or cancel it.
            Scheduled sending needs Parley running.
          </span>
        ) : (
          <span>Scheduled for {formatWhen(item.dueAt)}</span>
        )}
        {!rescheduling && (
          <>
            <button
              type="button"
              className="button small ghost"
              title="Back into the composer, with its reply, effect and files"
              onClick={() => void editHeld(item)}
            >
              Edit
            </button>
            <button type="button" className="button small ghost" onClick={() => setRescheduling(true)}>
              Reschedule
            </button>
            <button type="button" className="button small" onClick={() => void sendHeldNow(item)}>
              <Send size={13} aria-hidden="true" /> Send now
            </button>
            <button type="button" className="button small ghost" onClick={() => void cancelHeld(item)}>
              Cancel
            </button>
          </>
        )}
      </div>
      {rescheduling && (
        <WhenMenu
          label="Reschedule"
          presets={SEND_LATER_PRESETS}
          initial={item.dueAt}
          onPick={(at) => void changeHeld(item, { at }).then((ok) => ok && setRescheduling(false))}
          onClose={() => setRescheduling(false)}
        />
      )}
    </li>
  );
}

function attachmentsLabel(item: ScheduledSend): string {
  const n = item.attachments.length + item.attachmentUrls.length;
  return `${n} ${n === 1 ? 'attachment' : 'attachments'}`;
}
