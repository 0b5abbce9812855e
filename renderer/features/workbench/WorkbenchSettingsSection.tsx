import { useEffect, useState } from 'react';
import { fieldLabel } from '../../../shared/contract/input-words.ts';
import { MAX_AGENT_NAME_CHARS } from '../../../shared/contract/limits.ts';
import { updateWorkbenchSettings } from '../../actions/workbench.ts';
import { useStore } from '../../store/index.ts';
import { LengthLimit } from '../../components/LengthLimit.tsx';
import { NotificationRulesSection } from './NotificationRulesSection.tsx';
import { LabeledInput } from '../../components/FormField.tsx';

/** Settings: the agent's name for canned replies, when a wait counts as overdue, undo send. */
export function WorkbenchSettingsSection() {
  const settings = useStore((s) => s.workbenchSettings);
  const [name, setName] = useState(settings.agentName);
  const [minutes, setMinutes] = useState(String(settings.overdueMinutes));
  const [undo, setUndo] = useState(settings.undoSeconds);
  useEffect(() => {
    setName(settings.agentName);
    setMinutes(String(settings.overdueMinutes));
    setUndo(settings.undoSeconds);
  }, [settings]);
  const minutesValid = /^\d+$/.test(minutes) && Number(minutes) <= 1440;
  const nameValid = name.trim().length <= MAX_AGENT_NAME_CHARS;
  return (
    <>
      <section className="card settings-card" aria-labelledby="settings-workbench">
        <h2 id="settings-workbench">Workbench</h2>
        <form
          className="form-grid"
          onSubmit={(e) => {
            e.preventDefault();
            if (minutesValid && nameValid)
              void updateWorkbenchSettings({
                agentName: name,
                overdueMinutes: Number(minutes),
                undoSeconds: undo,
              });
          }}
        >
          <LabeledInput
            id="workbench-agent-name"
            label="Your name"
            value={name}
            aria-invalid={!nameValid || undefined}
            aria-describedby="workbench-agent-name-length workbench-agent-name-hint"
            onChange={(e) => setName(e.target.value)}
          >
            <LengthLimit
              id="workbench-agent-name-length"
              label={fieldLabel('workbench.updateSettings', ['agentName'])}
              length={name.trim().length}
              max={MAX_AGENT_NAME_CHARS}
            />
            <span id="workbench-agent-name-hint" className="field-hint">
              Fills {'{agent_name}'} in canned replies.
            </span>
          </LabeledInput>
          <LabeledInput
            id="workbench-overdue"
            label="Overdue after (minutes)"
            inputMode="numeric"
            value={minutes}
            aria-invalid={!minutesValid}
            aria-describedby="workbench-overdue-hint"
            onChange={(e) => setMinutes(e.target.value)}
          >
            <span id="workbench-overdue-hint" className={minutesValid ? 'field-hint' : 'field-error'}>
              {minutesValid
                ? 'Waits this long are marked overdue in Waiting on you; 0 turns it off.'
                : 'A whole number of minutes, up to 1440.'}
            </span>
          </LabeledInput>
          <div className="field">
            <label htmlFor="workbench-undo">Undo send</label>
            <select
              id="workbench-undo"
              className="input"
              value={undo}
              aria-describedby="workbench-undo-hint"
              onChange={(e) => setUndo(Number(e.target.value))}
            >
              <option value={0}>Off</option>
              {[3, 5, 10].map((n) => (
                <option key={n} value={n}>
                  {n} seconds
                </option>
              ))}
            </select>
            <span id="workbench-undo-hint" className="field-hint">
              A sent message waits this long, with an Undo button, before it goes out.
            </span>
          </div>
          <div className="field span-2">
            <button type="submit" className="button" disabled={!minutesValid || !nameValid}>
              Save workbench settings
            </button>
          </div>
        </form>
      </section>
      <NotificationRulesSection />
    </>
  );
}
