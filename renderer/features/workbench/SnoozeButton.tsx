import { AlarmClock } from 'lucide-react';
import { useEffect, useState } from 'react';
import { clearSnooze, snoozeChat } from '../../actions/scheduled.ts';
import { useStore } from '../../store/index.ts';
import { formatWhen } from './schedule-format.ts';
import { SNOOZE_PRESETS, WhenMenu } from './WhenMenu.tsx';
import { IconButton } from '../../components/IconButton.tsx';

/**
 * Snooze from the conversation's header: the chat leaves the inbox until the picked time or the
 * customer's reply. Opening a chat that came back from a snooze clears its "Snoozed until" mark.
 */
export function SnoozeButton({ chatId }: { chatId: number }) {
  const [open, setOpen] = useState(false);
  const sleeping = useStore((s) => s.snoozes.snoozed.find((x) => x.chat.id === chatId)?.snooze);
  const woken = useStore((s) => s.snoozes.woken.some((x) => x.chat.id === chatId));
  useEffect(() => {
    if (woken) void clearSnooze(chatId);
  }, [chatId, woken]);
  if (chatId < 0) return null;
  return (
    <div className="snooze-control">
      {sleeping ? (
        <IconButton
          className="is-active"
          label={`Snoozed until ${formatWhen(sleeping.until)}: unsnooze`}
          title={`Snoozed until ${formatWhen(sleeping.until)} or the customer’s reply — click to unsnooze`}
          onClick={() => void clearSnooze(chatId)}
        >
          <AlarmClock size={16} />
        </IconButton>
      ) : (
        <IconButton
          label="Snooze"
          aria-expanded={open}
          title="Snooze: hide until a time or the customer’s reply"
          onClick={() => setOpen((o) => !o)}
        >
          <AlarmClock size={16} />
        </IconButton>
      )}
      {open && (
        <div className="snooze-popover">
          <WhenMenu
            label="Snooze until"
            presets={SNOOZE_PRESETS}
            onPick={(at) => {
              setOpen(false);
              void snoozeChat(chatId, at);
            }}
            onClose={() => setOpen(false)}
          />
          <p className="hint">It also comes back as soon as the customer replies.</p>
        </div>
      )}
    </div>
  );
}
