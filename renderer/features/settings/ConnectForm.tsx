import { useState } from 'react';
import type { ApiVersionCheck } from '../../../shared/contract/views.ts';
import type { ApiVersion } from '../../../shared/domain.ts';
import { connectWorkspace, probeWorkspace } from '../../actions/workspace.ts';
import { FormField, SecretField } from '../../components/FormField.tsx';
import { connectFailureText, connectFieldOf, toErrorShape } from '../../lib/errors.ts';
import { versionText } from '../../lib/capabilities.ts';
import { RadioRow } from '../../components/Toggle.tsx';
import { WorkspaceForm, useFieldError } from './WorkspaceForm.tsx';

type Field = 'name' | 'baseUrl' | 'token' | 'tokenHeader';

/**
 * Connects the organization's Partner Messaging Service in two steps: the token is first tried on
 * both API versions (nothing is stored), then the agent connects with the version they pick. The
 * token goes to the core (which keeps it in the OS keychain) and is never shown again: the field is
 * cleared after every failed try and once connected.
 */
export function ConnectForm({ onDone }: { onDone(): void }) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [token, setToken] = useState('');
  const [tokenHeader, setTokenHeader] = useState('');
  const [busy, setBusy] = useState(false);
  const { error, setError, field } = useFieldError<Field>('connect-error');
  /** What the probe found for the address, token and header as they are now (null: not checked yet). */
  const [check, setCheck] = useState<ApiVersionCheck | null>(null);
  const [version, setVersion] = useState<ApiVersion>('v3');

  // Another address, token or header makes the last check say nothing about it.
  const edit = (set: (value: string) => void) => (value: string) => {
    set(value);
    setCheck(null);
  };

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
    const connection = {
      baseUrl: baseUrl.trim(),
      token,
      ...(tokenHeader.trim() ? { tokenHeader: tokenHeader.trim() } : {}),
    };
    try {
      if (!check) {
        const found = await probeWorkspace(connection);
        setCheck(found);
        setVersion(found.recommended);
        return;
      }
      await connectWorkspace({ name: name.trim(), ...connection, apiVersion: version });
      setToken('');
      onDone();
    } catch (e) {
      const shape = toErrorShape(e);
      setError({ field: connectFieldOf(shape), text: connectFailureText(shape) });
      setToken('');
      setCheck(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <WorkspaceForm
      title="Connect your organization"
      intro="Your administrator gives you the service’s address and an integration token."
      errorId="connect-error"
      error={error?.text ?? null}
      busy={busy}
      submitLabel={busy ? 'Checking…' : check ? 'Connect' : 'Check token'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="form-grid">
        <FormField
          {...field('name', 'connect-name', 'Workspace name')}
          value={name}
          placeholder="Harborview Home Services"
          onChange={(e) => setName(e.target.value)}
        />
        <FormField
          {...field('baseUrl', 'connect-url', 'Base URL')}
          type="url"
          value={baseUrl}
          placeholder="https://api.example.com"
          onChange={(e) => edit(setBaseUrl)(e.target.value)}
        />
        <SecretField
          {...field('token', 'connect-token', 'Integration token')}
          wide
          value={token}
          onChange={(e) => edit(setToken)(e.target.value)}
        />
      </div>
      <details className="advanced">
        <summary>Advanced</summary>
        <FormField
          {...field('tokenHeader', 'connect-header', 'Token header name')}
          value={tokenHeader}
          placeholder="X-PARTNER-INTEGRATION-TOKEN"
          onChange={(e) => edit(setTokenHeader)(e.target.value)}
        />
      </details>
      <div role="status" className="version-found">
        {check && <VersionFound check={check} />}
      </div>
      {check?.v2.works && check.v3.works && <VersionChoice version={version} onChange={setVersion} />}
    </WorkspaceForm>
  );
}

/** What the probe found, in one sentence (announced: it appears in a status region). */
function VersionFound({ check }: { check: ApiVersionCheck }) {
  const lines = `${check.lines} ${check.lines === 1 ? 'line' : 'lines'}`;
  if (check.v2.works && check.v3.works)
    return (
      <p className="small">
        The token works with both API versions ({lines}). Choose the one this workspace uses.
      </p>
    );
  const only: ApiVersion = check.v3.works ? 'v3' : 'v2';
  const other = check[only === 'v3' ? 'v2' : 'v3'];
  return (
    <p className="small">
      The token works with API {versionText(only)} only ({lines}); this workspace will use it.
      {!other.works && <span className="muted"> {other.reason}.</span>}
    </p>
  );
}

const VERSION_WORDS: Record<ApiVersion, { label: string; hint: string }> = {
  v3: {
    label: 'V3 (recommended)',
    hint: 'The service’s current API: replies in threads, effects, any-emoji reactions, delivery details.',
  },
  v2: { label: 'V2', hint: 'The earlier API. You can move to V3 later in Settings, history kept.' },
};

/** Shown where both versions work; it takes the focus when it appears, as the next thing to decide. */
function VersionChoice({ version, onChange }: { version: ApiVersion; onChange(version: ApiVersion): void }) {
  return (
    <fieldset className="radio-list version-choice" role="radiogroup" aria-labelledby="connect-version">
      <legend id="connect-version">API version</legend>
      {(['v3', 'v2'] as const).map((value) => (
        <RadioRow
          key={value}
          name="connect-api-version"
          value={value}
          autoFocus={version === value}
          checked={version === value}
          onSelect={() => onChange(value)}
          {...VERSION_WORDS[value]}
        />
      ))}
    </fieldset>
  );
}
