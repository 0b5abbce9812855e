import { useEffect, useId, useRef, useState } from 'react';
import type { SchedulePreset } from '../../../shared/schedule.ts';
import { instantOfLocalInput } from '../../../shared/schedule.ts';
import { agentTimeZone, formatWhen, localInputValue, presetChoices } from './schedule-format.ts';
import { SubmitOrCancel } from '../../components/SubmitOrCancel.tsx';

/** A small menu of times: quick choices and a date-and-time field (send later, reschedule, snooze). */
export function WhenMenu({
  label,
  presets,
  onPick,
  onClose,
  initial,
}: {
  label: string;
  presets: Array<[SchedulePreset, string]>;
  onPick(at: number): void;
  onClose(): void;
  initial?: number;
}) {
  const [now] = useState(() => Date.now());
  const choices = presetChoices(now, presets);
  const [custom, setCustom] = useState(localInputValue(initial ?? now + 3_600_000));
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);

  return (
    <div
      className="when-menu"
      role="group"
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <ul>
        {choices.map((c, i) => (
          <li key={c.preset}>
            <button type="button" ref={i === 0 ? first : undefined} onClick={() => onPick(c.at)}>
              <span>{c.label}</span>
              <span className="when-menu-time">{formatWhen(c.at)}</span>
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const at = instantOfLocalInput(custom, agentTimeZone());
          if (at === null) return setProblem('Pick a date and a time');
          if (at <= Date.now()) return setProblem('Pick a time in the future');
          onPick(at);
        }}
      >
        <label htmlFor={`${id}-at`}>Pick a date and time</label>
        <input
          id={`${id}-at`}
          type="datetime-local"
          value={custom}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(e) => {
            setCustom(e.target.value);
            setProblem(null);
          }}
        />
        <SubmitOrCancel label="Set" onCancel={onClose} />
        {problem && (
          <span id={`${id}-problem`} className="field-error">
            {problem}
          </span>
        )}
      </form>
    </div>
  );
}

export const SEND_LATER_PRESETS: Array<[SchedulePreset, string]> = [
  ['laterToday', 'Later today'],
  ['tomorrowMorning', 'Tomorrow morning'],
  ['mondayMorning', 'Monday morning'],
];

export const SNOOZE_PRESETS: Array<[SchedulePreset, string]> = [
  ['laterToday', 'Later today'],
  ['tomorrowMorning', 'Tomorrow'],
  ['nextWeek', 'Next week'],
];
