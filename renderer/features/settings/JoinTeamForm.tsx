import { useState } from 'react';
import { joinTeam } from '../../actions/workspace.ts';
import { FormField, SecretField } from '../../components/FormField.tsx';
import { joinFailureText, joinFieldOf, toErrorShape } from '../../lib/errors.ts';
import { WorkspaceForm, useFieldError } from './WorkspaceForm.tsx';

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
  const { error, setError, field } = useFieldError<Field>('join-error');

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

  return (
    <WorkspaceForm
      title="Join your team"
      intro="Your team’s relay holds the organization’s token; you only need the join code it printed for you."
      errorId="join-error"
      error={error?.text ?? null}
      busy={busy}
      submitLabel={busy ? 'Joining…' : 'Join'}
      onSubmit={() => void submit()}
      onCancel={onDone}
    >
      <div className="form-grid">
        <SecretField
          {...field('joinCode', 'join-code', 'Join code')}
          wide
          value={joinCode}
          placeholder="parley-join-1.…"
          onChange={(e) => setJoinCode(e.target.value)}
        />
        <FormField
          {...field('name', 'join-name', 'Workspace name')}
          value={name}
          placeholder="Team"
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <details className="advanced">
        <summary>Advanced</summary>
        <FormField
          {...field('relayUrl', 'join-relay-url', 'Relay address')}
          value={relayUrl}
          placeholder="The one in the join code"
          onChange={(e) => setRelayUrl(e.target.value)}
        />
      </details>
    </WorkspaceForm>
  );
}
