import { useState } from 'react';
import { joinTeam } from '../../actions/workspace.ts';
import { joinFailureText, joinFieldOf, toErrorShape } from '../../lib/errors.ts';

type Field = 'joinCode' | 'relayUrl' | 'name';

/**
 * Joins the organization a team's relay serves, with the join code `npm run relay -- agent add`
 * printed. The code carries the relay's address and this agent's credentials, which the core keeps
 * in the OS keychain; the field is cleared after every try. No token comes to this desktop.
 */
export function JoinTeamForm({ onDone }: { onDone(): void }) {
  const [joinCode, setJoinCode] = useState('');
  const [relayUrl, setRelayUrl] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: Field | null; text: string } | null>(null);

  const submit = async () => {
    if (!joinCode.trim()) {
      setError({ field: 'joinCode', text: 'Paste the join code your team gave you.' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await joinTeam({
        joinCode: joinCode.trim(),
        ...(relayUrl.trim() ? { relayUrl: relayUrl.trim() } : {}),
        ...(name.trim() ? { name: name.trim() } : {}),
      });
      onDone();
    } catch (e) {
      const shape = toErrorShape(e);
      setError({ field: joinFieldOf(shape), text: joinFailureText(shape) });
    } finally {
      setJoinCode('');
      setBusy(false);
    }
  };

  const describe = (field: Field) => (error?.field === field ? 'join-error' : undefined);
  return (
    <form
      className="form connect-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>Join your team</h3>
      <p className="muted small">
        Your team’s relay holds the organization’s token; you only need the join code it printed for you.
      </p>
      <div className="form-grid">
        <div className="field span-2">
          <label htmlFor="join-code">Join code</label>
          <input
            id="join-code"
            className="input"
            type="password"
            autoComplete="off"
            value={joinCode}
            placeholder="parley-join-1.…"
            aria-invalid={error?.field === 'joinCode'}
            aria-describedby={describe('joinCode')}
            onChange={(e) => setJoinCode(e.target.value)}
          />
          <span className="field-hint">Stored in your system keychain; Parley never shows it again.</span>
        </div>
        <div className="field">
          <label htmlFor="join-name">Workspace name</label>
          <input
            id="join-name"
            className="input"
            value={name}
            placeholder="Team"
            aria-invalid={error?.field === 'name'}
            aria-describedby={describe('name')}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
      </div>
      <details className="advanced">
        <summary>Advanced</summary>
        <div className="field">
          <label htmlFor="join-relay-url">Relay address</label>
          <input
            id="join-relay-url"
            className="input"
            value={relayUrl}
            placeholder="The one in the join code"
            aria-invalid={error?.field === 'relayUrl'}
            aria-describedby={describe('relayUrl')}
            onChange={(e) => setRelayUrl(e.target.value)}
          />
        </div>
      </details>
      {error && (
        <p id="join-error" className="form-error" role="alert">
          {error.text}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Joining…' : 'Join'}
        </button>
      </div>
    </form>
  );
}
