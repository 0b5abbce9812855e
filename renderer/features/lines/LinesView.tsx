import { Phone } from 'lucide-react';
import { useState } from 'react';
import type { LineWithUnread } from '../../../shared/contract/views.ts';
import { formatAsYouType, formatHandle, toE164 } from '../../../shared/phone.ts';
import { setForwarding } from '../../actions/lines.ts';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { errorText } from '../../lib/errors.ts';
import { useStore } from '../../store/index.ts';

/** The organization's lines: who uses each, its response rate, and its call forwarding number. */
export function LinesView() {
  const lines = useStore((s) => s.lines);
  const status = useStore((s) => s.linesStatus);
  return (
    <div className="page">
      <header className="page-header">
        <h1>Lines & forwarding</h1>
        <p className="muted">
          Calls to a line ring its forwarding number. Leave it empty to stop forwarding.
        </p>
      </header>
      {status === 'loading' ? (
        <Spinner label="Loading lines" />
      ) : status === 'error' ? (
        <EmptyState tone="error" title="Lines could not be loaded" />
      ) : lines.length === 0 ? (
        <EmptyState icon={<Phone size={22} />} title="No lines">
          Your organization has no phone lines yet.
        </EmptyState>
      ) : (
        <ul className="card-list">
          {lines.map((line) => (
            <LineCard key={line.id} line={line} />
          ))}
        </ul>
      )}
    </div>
  );
}

function LineCard({ line }: { line: LineWithUnread }) {
  const [value, setValue] = useState(line.forwardingNumber ? formatHandle(line.forwardingNumber) : '');
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' | 'error'; text?: string }>({
    kind: 'idle',
  });
  const id = `forwarding-${line.id}`;
  const dirty = (toE164(value) ?? value.trim()) !== (line.forwardingNumber ?? '');

  const save = async () => {
    const trimmed = value.trim();
    if (trimmed && !toE164(trimmed)) {
      setState({ kind: 'error', text: `“${trimmed}” is not a phone number.` });
      return;
    }
    setState({ kind: 'saving' });
    try {
      await setForwarding(line.id, trimmed ? (toE164(trimmed) ?? trimmed) : '');
      setState({ kind: 'saved', text: trimmed ? 'Forwarding number saved.' : 'Forwarding turned off.' });
    } catch (error) {
      setState({ kind: 'error', text: errorText(error) });
    }
  };

  return (
    <li className="card line-card">
      <div className="line-card-head">
        <span className="line-card-icon" aria-hidden="true">
          <Phone size={16} />
        </span>
        <div>
          <h2>{formatHandle(line.phoneNumber)}</h2>
          <p className="muted">
            {line.userName ?? 'Unassigned'}
            {line.userEmail ? ` · ${line.userEmail}` : ''}
          </p>
        </div>
        <span className="spacer" />
        <div className="stat">
          <span className="stat-value">{line.responseRate === null ? '—' : `${line.responseRate}%`}</span>
          <span className="stat-label">response rate</span>
        </div>
        <div className="stat">
          <span className="stat-value">{line.unreadChats}</span>
          <span className="stat-label">unread</span>
        </div>
      </div>
      <form
        className="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label htmlFor={id}>Forward calls to</label>
        <input
          id={id}
          className="input"
          type="tel"
          placeholder="No forwarding"
          value={value}
          aria-invalid={state.kind === 'error'}
          aria-describedby={state.text ? `${id}-status` : undefined}
          onChange={(e) => {
            setValue(
              /^[+\d\s().-]*$/.test(e.target.value) ? formatAsYouType(e.target.value) : e.target.value,
            );
            setState({ kind: 'idle' });
          }}
        />
        <button type="submit" className="button primary small" disabled={!dirty || state.kind === 'saving'}>
          {state.kind === 'saving' ? 'Saving…' : value.trim() ? 'Save' : 'Clear'}
        </button>
        {state.text && (
          <span
            id={`${id}-status`}
            className={state.kind === 'error' ? 'field-error' : 'field-success'}
            role="status"
          >
            {state.text}
          </span>
        )}
      </form>
    </li>
  );
}
