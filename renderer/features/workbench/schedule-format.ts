import { laterTodayIsToday, presetInstant, type SchedulePreset } from '../../../shared/schedule.ts';

/** The agent's time zone, as the system reports it. */
export const agentTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** "Tue, Mar 10, 8:00 AM": when a held message goes out or a snooze ends. */
export function formatWhen(at: number): string {
  return new Date(at).toLocaleString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** The value a `datetime-local` field shows for an instant, in the agent's zone. */
export function localInputValue(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export interface PresetChoice {
  preset: SchedulePreset;
  label: string;
  at: number;
}

/** The quick choices of a "send later" or "snooze" menu, as seen now ("later today" only while it is today). */
export function presetChoices(now: number, presets: Array<[SchedulePreset, string]>): PresetChoice[] {
  const zone = agentTimeZone();
  return presets
    .filter(([preset]) => preset !== 'laterToday' || laterTodayIsToday(now, zone))
    .map(([preset, label]) => ({ preset, label, at: presetInstant(preset, now, zone) }));
}
