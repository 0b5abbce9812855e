import { useState } from 'react';
import { connectWorkspace } from '../../actions/workspace.ts';
import { connectFailureText, connectFieldOf, toErrorShape } from '../../lib/errors.ts';

type Field = 'name' | 'baseUrl' | 'token' | 'tokenHeader';

/**
 * Connects the organization's Partner Messaging Service. The token goes to the core (which checks it
 * and keeps it in the OS keychain) and is never shown again: the field is cleared after every try.
 */
export function ConnectForm({ onDone }: { onDone(): void }) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [token, setToken] = useState('');
  const [tokenHeader, setTokenHeader] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ field: Field | null; text: string } | null>(null);

  const submit = async () => {
    const missing: Field | null = !name.trim()
      ? 'name'
      : !baseUrl.trim()
        ? 'baseUrl'
        : !token
          ? 'token'
          : null;
    if (missing) {
      setError({
        field: missing,
        text: {
          name: 'Name this workspace.',
          baseUrl: 'Enter the service’s base URL.',
          token: 'Paste the integration token.',
          tokenHeader: '',
        }[missing],
      });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await connectWorkspace({
        name: name.trim(),
        baseUrl: baseUrl.trim(),
        token,
        ...(tokenHeader.trim() ? { tokenHeader: tokenHeader.trim() } : {}),
      });
      setToken('');
      onDone();
    } catch (e) {
      const shape = toErrorShape(e);
      setError({ field: connectFieldOf(shape), text: connectFailureText(shape) });
      setToken('');
    } finally {
      setBusy(false);
    }
  };

  const describe = (field: Field) => (error?.field === field ? 'connect-error' : undefined);
  return (
    <form
      className="form connect-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>Connect your organization</h3>
      <p className="muted small">
        Your administrator gives you the service’s address and an integration token.
      </p>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="connect-name">Workspace name</label>
          <input
            id="connect-name"
            className="input"
            value={name}
            placeholder="Harborview Home Services"
            aria-invalid={error?.field === 'name'}
            aria-describedby={describe('name')}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="connect-url">Base URL</label>
          <input
            id="connect-url"
            className="input"
            type="url"
            value={baseUrl}
            placeholder="https://api.example.com"
            aria-invalid={error?.field === 'baseUrl'}
            aria-describedby={describe('baseUrl')}
            onChange={(e) => setBaseUrl(e.target.value)}
          />
        </div>
        <div className="field span-2">
          <label htmlFor="connect-token">Integration token</label>
          <input
            id="connect-token"
            className="input"
            type="password"
            autoComplete="off"
            value={token}
            aria-invalid={error?.field === 'token'}
            aria-describedby={describe('token')}
            onChange={(e) => setToken(e.target.value)}
          />
          <span className="field-hint">Stored in your system keychain; Parley never shows it again.</span>
        </div>
      </div>
      <details className="advanced">
        <summary>Advanced</summary>
        <div className="field">
          <label htmlFor="connect-header">Token header name</label>
          <input
            id="connect-header"
            className="input"
            value={tokenHeader}
            placeholder="X-PARTNER-INTEGRATION-TOKEN"
            aria-invalid={error?.field === 'tokenHeader'}
            aria-describedby={describe('tokenHeader')}
            onChange={(e) => setTokenHeader(e.target.value)}
          />
        </div>
      </details>
      {error && (
        <p id="connect-error" className="form-error" role="alert">
          {error.text}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Checking…' : 'Connect'}
        </button>
      </div>
    </form>
  );
}
