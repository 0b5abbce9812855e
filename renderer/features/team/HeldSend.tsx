import { TriangleAlert } from 'lucide-react';
import { SEND_HELD_CODE } from '../../../shared/contract/team-views.ts';
import type { Message } from '../../../shared/domain.ts';
import { answerHeld } from '../../actions/team.ts';
import { useClock } from '../../hooks/use-clock.ts';
import { heldWords } from '../../lib/team-compose.ts';
import { useStore } from '../../store/index.ts';

/** The newest of a timeline's messages the relay held back at send time, if any. */
export function heldMessageOf(messages: readonly Message[]): Message | undefined {
  return messages.findLast((m) => m.state === 'failed' && m.error?.code === SEND_HELD_CODE);
}

/**
 * Above the composer when the relay held the agent's reply because something landed that the
 * agent had not seen: "Dana replied 20 s ago: …" (the age kept true as time passes), with "Send
 * anyway" and "Discard". An alert, so a screen reader hears it at once.
 */
export function HeldSend({ chatId }: { chatId: number }) {
  const held = useStore((s) => heldMessageOf(s.timelines[chatId]?.messages ?? []));
  const now = useClock();
  if (!held?.error) return null;
  return (
    <div className="held-send" role="alert" data-testid="held-send" data-key={held.key}>
      <TriangleAlert size={16} aria-hidden="true" className="held-send-icon" />
      <div className="held-send-text">
        <strong>Your reply “{preview(held.text)}” was not sent.</strong>{' '}
        <span>{heldWords(held.error.message, held.sentAt, now)}</span>
      </div>
      <div className="held-send-actions">
        <button
          type="button"
          className="button small primary"
          onClick={() => void answerHeld(held.key, 'sendAnyway')}
        >
          Send anyway
        </button>
        <button
          type="button"
          className="button small ghost"
          onClick={() => void answerHeld(held.key, 'discard')}
        >
          Discard
        </button>
      </div>
    </div>
  );
}

function preview(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
