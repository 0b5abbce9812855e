import { useEffect, useState } from 'react';
import { formatHandle } from '../../../shared/phone.ts';
import { updateWorkbenchSettings } from '../../actions/workbench.ts';
import { useStore } from '../../store/index.ts';
import { LabeledInput } from '../../components/FormField.tsx';

/** Settings: do-not-disturb hours and muted lines (no notifications for them; the inbox still fills). */
export function NotificationRulesSection() {
  const settings = useStore((s) => s.workbenchSettings);
  const lines = useStore((s) => s.lines);
  const [quiet, setQuiet] = useState(settings.quietHours !== null);
  const [start, setStart] = useState(settings.quietHours?.start ?? '22:00');
  const [end, setEnd] = useState(settings.quietHours?.end ?? '07:00');
  useEffect(() => {
    setQuiet(settings.quietHours !== null);
    if (settings.quietHours) {
      setStart(settings.quietHours.start);
      setEnd(settings.quietHours.end);
    }
  }, [settings.quietHours]);
  const muted = new Set(settings.mutedLineIds);

  return (
    <section className="card settings-card" aria-labelledby="settings-quiet">
      <h2 id="settings-quiet">Do not disturb</h2>
      <form
        className="form-grid"
        onSubmit={(e) => {
          e.preventDefault();
          void updateWorkbenchSettings({ quietHours: quiet ? { start, end } : null });
        }}
      >
        <div className="field span-2">
          <label>
            <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.target.checked)} /> No
            notifications between
          </label>
        </div>
        <LabeledInput
          id="quiet-start"
          label="From"
          type="time"
          value={start}
          disabled={!quiet}
          onChange={(e) => setStart(e.target.value)}
        />
        <LabeledInput
          id="quiet-end"
          label="Until"
          type="time"
          value={end}
          disabled={!quiet}
          onChange={(e) => setEnd(e.target.value)}
        />
        <div className="field span-2">
          <button type="submit" className="button">
            Save quiet hours
          </button>
        </div>
      </form>
      {lines.length > 0 && (
        <fieldset className="field">
          <legend>Muted lines (no notifications)</legend>
          {lines.map((line) => (
            <label key={line.id}>
              <input
                type="checkbox"
                checked={muted.has(line.id)}
                onChange={(e) => {
                  const next = new Set(muted);
                  if (e.target.checked) next.add(line.id);
                  else next.delete(line.id);
                  void updateWorkbenchSettings({ mutedLineIds: [...next] });
                }}
              />{' '}
              {line.userName ? `${line.userName} · ` : ''}
              {formatHandle(line.phoneNumber)}
            </label>
          ))}
        </fieldset>
      )}
    </section>
  );
}
