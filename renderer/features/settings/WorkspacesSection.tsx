import { Check, Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { WorkspaceInfo } from '../../../shared/contract/views.ts';
import { removeWorkspace, renameWorkspace, switchWorkspace } from '../../actions/workspace.ts';
import { errorText } from '../../lib/errors.ts';
import { useStore } from '../../store/index.ts';
import { ConnectForm } from './ConnectForm.tsx';

/** Every workspace keeps its own inbox: switch, rename, remove, or connect another. */
export function WorkspacesSection() {
  const workspaces = useStore((s) => s.workspaces);
  const demo = useStore((s) => s.appInfo?.demo ?? false);
  const [connecting, setConnecting] = useState(demo);
  return (
    <section className="card settings-card" aria-labelledby="settings-workspaces">
      <h2 id="settings-workspaces">Workspaces</h2>
      <ul className="workspace-list">
        {workspaces.map((w) => (
          <WorkspaceRow key={w.id} workspace={w} />
        ))}
      </ul>
      {connecting ? (
        <ConnectForm onDone={() => setConnecting(false)} />
      ) : (
        <button type="button" className="button" onClick={() => setConnecting(true)}>
          Connect your organization
        </button>
      )}
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
          {workspace.kind === 'demo' ? 'Simulated demo' : workspace.baseUrl}
          {' · '}
          <span className="workspace-version">API {workspace.apiVersion === 'v3' ? 'V3' : 'V2'}</span>
        </span>
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
