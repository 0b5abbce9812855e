import { Check, Pencil, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { WorkspaceInfo } from '../../../shared/contract/views.ts';
import type { ApiVersion } from '../../../shared/domain.ts';
import {
  changeApiVersion,
  removeWorkspace,
  renameWorkspace,
  switchWorkspace,
} from '../../actions/workspace.ts';
import { connectFailureText, errorText, toErrorShape } from '../../lib/errors.ts';
import { versionText } from '../../lib/capabilities.ts';
import { useStore } from '../../store/index.ts';
import { ConnectForm } from './ConnectForm.tsx';
import { JoinTeamForm } from './JoinTeamForm.tsx';

/** Every workspace keeps its own inbox: switch, rename, remove, or connect another. */
export function WorkspacesSection() {
  const workspaces = useStore((s) => s.workspaces);
  const demo = useStore((s) => s.appInfo?.demo ?? false);
  const [adding, setAdding] = useState<'connect' | 'join' | null>(demo ? 'connect' : null);
  return (
    <section className="card settings-card" aria-labelledby="settings-workspaces">
      <h2 id="settings-workspaces">Workspaces</h2>
      <ul className="workspace-list">
        {workspaces.map((w) => (
          <WorkspaceRow key={w.id} workspace={w} />
        ))}
      </ul>
      {adding === 'connect' && <ConnectForm onDone={() => setAdding(null)} />}
      {adding === 'join' && <JoinTeamForm onDone={() => setAdding(null)} />}
      <div className="form-actions">
        {adding !== 'connect' && (
          <button type="button" className="button" onClick={() => setAdding('connect')}>
            Connect your organization
          </button>
        )}
        {adding !== 'join' && (
          <button type="button" className="button" onClick={() => setAdding('join')}>
            Join your team
          </button>
        )}
      </div>
    </section>
  );
}

function WorkspaceRow({ workspace }: { workspace: WorkspaceInfo }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(workspace.name);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <li className={`workspace-row${workspace.active ? ' is-active' : ''}`}>
      <span className="workspace-mark" aria-hidden="true">
        {workspace.name.slice(0, 1).toUpperCase()}
      </span>
      <div className="workspace-row-text">
        {renaming ? (
          <form
            className="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              renameWorkspace(workspace.id, name)
                .then(() => setRenaming(false))
                .catch((err: unknown) => setError(errorText(err)));
            }}
          >
            <label className="visually-hidden" htmlFor={`rename-${workspace.id}`}>
              Workspace name
            </label>
            <input
              id={`rename-${workspace.id}`}
              className="input small"
              value={name}
              autoFocus
              onChange={(e) => setName(e.target.value)}
            />
            <button type="submit" className="button small primary">
              Save
            </button>
            <button type="button" className="button small" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </form>
        ) : (
          <span className="workspace-row-name">
            {workspace.name}
            {workspace.active && (
              <span className="pill">
                <Check size={11} aria-hidden="true" /> Active
              </span>
            )}
          </span>
        )}
        <span className="muted small">
          {workspace.kind === 'demo'
            ? 'Simulated demo'
            : workspace.kind === 'relay'
              ? `Through your team’s relay (${workspace.relayUrl ?? ''})`
              : workspace.baseUrl}
          {' · '}
          <span className="workspace-version">API {versionText(workspace.apiVersion)}</span>
        </span>
        {workspace.kind !== 'relay' && <VersionSwitch workspace={workspace} />}
        {error && <span className="field-error">{error}</span>}
      </div>
      {!workspace.active && (
        <button type="button" className="button small" onClick={() => void switchWorkspace(workspace.id)}>
          Switch
        </button>
      )}
      <button
        type="button"
        className="icon-button"
        aria-label={`Rename ${workspace.name}`}
        onClick={() => setRenaming(true)}
      >
        <Pencil size={14} />
      </button>
      {confirming ? (
        <span className="confirm-inline" role="alertdialog" aria-label={`Remove ${workspace.name}?`}>
          Remove, with its local data?
          <button
            type="button"
            className="button small danger"
            autoFocus
            onClick={() => removeWorkspace(workspace.id).catch((err: unknown) => setError(errorText(err)))}
          >
            Remove
          </button>
          <button type="button" className="button small" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          className="icon-button"
          aria-label={`Remove ${workspace.name}`}
          onClick={() => setConfirming(true)}
        >
          <Trash2 size={14} />
        </button>
      )}
    </li>
  );
}

const MOVE_EXPLAINED: Record<ApiVersion, string> = {
  v3:
    'Your history stays: each conversation is matched to its V3 chat through the service’s ' +
    'migrate_to_v3, and its messages, drafts, pins and read state are kept. Contacts stay on V2.',
  v2:
    'Your conversations, messages, drafts, pins and read state stay. Replies in threads, effects ' +
    'and any-emoji reactions turn off.',
};

/** Moves a workspace to the other API version, after the agent confirms; failures in words. */
function VersionSwitch({ workspace }: { workspace: WorkspaceInfo }) {
  const target: ApiVersion = workspace.apiVersion === 'v3' ? 'v2' : 'v3';
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const id = useId();
  const close = () => {
    setConfirming(false);
    requestAnimationFrame(() => trigger.current?.focus());
  };
  const move = async () => {
    setBusy(true);
    setError(null);
    try {
      await changeApiVersion(workspace.id, target);
      setDone(`Now on API ${versionText(target)}.`);
      close();
    } catch (e) {
      setError(connectFailureText(toErrorShape(e)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      {!confirming && (
        <button
          ref={trigger}
          type="button"
          className="link-button version-switch"
          aria-label={`Switch to API ${versionText(target)} (${workspace.name})`}
          onClick={() => {
            setConfirming(true);
            setError(null);
            setDone(null);
          }}
        >
          Switch to API {versionText(target)}
        </button>
      )}
      {confirming && (
        <div
          className="version-confirm"
          role="alertdialog"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-why`}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && !busy) {
              e.stopPropagation();
              close();
            }
          }}
        >
          <p id={`${id}-title`} className="version-confirm-title">
            Switch {workspace.name} to API {versionText(target)}?
          </p>
          <p id={`${id}-why`} className="small">
            {MOVE_EXPLAINED[target]}
          </p>
          <div className="form-actions">
            <button type="button" className="button small" disabled={busy} onClick={close}>
              Cancel
            </button>
            <button
              type="button"
              className="button small primary"
              autoFocus
              disabled={busy}
              onClick={() => void move()}
            >
              {busy ? 'Checking…' : `Switch to ${versionText(target)}`}
            </button>
          </div>
        </div>
      )}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
      <span className="visually-hidden" role="status">
        {done}
      </span>
    </>
  );
}
