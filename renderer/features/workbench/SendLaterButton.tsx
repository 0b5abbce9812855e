import { CalendarClock } from 'lucide-react';
import { useState } from 'react';
import { scheduleDraft } from '../../actions/scheduled.ts';
import { SEND_LATER_PRESETS, WhenMenu } from './WhenMenu.tsx';

/** "Send later" beside Send: the draft is scheduled and shows in the thread until it goes out. */
export function SendLaterButton({ chatId, disabled }: { chatId: number; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="send-later">
      <button
        type="button"
        className="icon-button"
        aria-label="Schedule message"
        aria-expanded={open}
        title="Send later (Parley must be running then)"
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
      >
        <CalendarClock size={16} />
      </button>
      {open && (
        <div className="send-later-popover">
          <WhenMenu
            label="Send later"
            presets={SEND_LATER_PRESETS}
            onPick={(at) => {
              setOpen(false);
              void scheduleDraft(chatId, at);
            }}
            onClose={() => setOpen(false)}
          />
          <p className="hint">Scheduled messages go out only while Parley is running.</p>
        </div>
      )}
    </div>
  );
}
