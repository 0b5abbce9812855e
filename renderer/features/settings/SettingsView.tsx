import { Monitor, Moon, Sun } from 'lucide-react';
import { useState } from 'react';
import type { PublicSettings } from '../../../shared/contract/views.ts';
import {
  notificationPermission,
  notificationsSupported,
  requestNotificationPermission,
} from '../../actions/notifications.ts';
import { updateSettings } from '../../actions/workspace.ts';
import { useStore } from '../../store/index.ts';
import { Toggle } from '../../components/Toggle.tsx';
import { TeamSettingsSection } from './TeamSettingsSection.tsx';
import { WorkspacesSection } from './WorkspacesSection.tsx';
import { WorkbenchSettingsSection } from '../workbench/WorkbenchSettingsSection.tsx';

/** Workspaces, the team (on a joined workspace), appearance, notifications, typing, about. */
export function SettingsView() {
  const settings = useStore((s) => s.settings);
  const info = useStore((s) => s.appInfo);
  const setOverlay = useStore((s) => s.setOverlay);
  return (
    <div className="page">
      <header className="page-header">
        <h1>Settings</h1>
      </header>
      <WorkspacesSection />
      <TeamSettingsSection />
      {settings && (
        <>
          <section className="card settings-card" aria-labelledby="settings-appearance">
            <h2 id="settings-appearance">Appearance</h2>
            <ThemePicker theme={settings.theme} />
          </section>
          <NotificationsSection settings={settings} />
          <WorkbenchSettingsSection />
          <section className="card settings-card" aria-labelledby="settings-typing">
            <h2 id="settings-typing">Typing indicator</h2>
            <p className="muted">What customers see while you write.</p>
            <div className="radio-list" role="radiogroup" aria-labelledby="settings-typing">
              <Radio
                name="typing"
                checked={settings.typingMode === 'automatic'}
                onChange={() => void updateSettings({ typingMode: 'automatic' })}
                label="Automatic"
                hint="The service shows it when a message is on its way."
              />
              <Radio
                name="typing"
                checked={settings.typingMode === 'manual'}
                onChange={() => void updateSettings({ typingMode: 'manual' })}
                label="While I type"
                hint="Parley shows “typing…” to the customer as you compose, and clears it when you stop."
              />
            </div>
          </section>
          <section className="card settings-card" aria-labelledby="settings-live">
            <h2 id="settings-live">Live updates</h2>
            <p className="muted">
              How new messages reach Parley: webhooks through a tunnel, or polling every{' '}
              {Math.round(settings.sync.pollIntervalMs / 1000)} s for the open chat.
            </p>
            <button type="button" className="button" onClick={() => setOverlay('live')}>
              Live status and tunnel settings
            </button>
          </section>
        </>
      )}
      {info && (
        <section className="card settings-card" aria-labelledby="settings-about">
          <h2 id="settings-about">About</h2>
          <p className="muted">
            {info.name} {info.version} · {info.host === 'electron' ? 'Desktop app' : 'Browser'} ·{' '}
            {info.platform}
          </p>
        </section>
      )}
    </div>
  );
}

function ThemePicker({ theme }: { theme: PublicSettings['theme'] }) {
  const options = [
    { value: 'light', label: 'Light', Icon: Sun },
    { value: 'dark', label: 'Dark', Icon: Moon },
    { value: 'system', label: 'System', Icon: Monitor },
  ] as const;
  return (
    <div className="theme-picker" role="radiogroup" aria-label="Theme">
      {options.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={theme === value}
          className={`theme-option${theme === value ? ' is-on' : ''}`}
          onClick={() => void updateSettings({ theme: value })}
        >
          <Icon size={16} aria-hidden="true" />
          {label}
        </button>
      ))}
    </div>
  );
}

function NotificationsSection({ settings }: { settings: PublicSettings }) {
  const [permission, setPermission] = useState(notificationPermission());
  const n = settings.notifications;
  return (
    <section className="card settings-card" aria-labelledby="settings-notifications">
      <h2 id="settings-notifications">Notifications</h2>
      <Toggle
        label="Notify me about new messages"
        hint="When Parley is in the background or another conversation is open."
        checked={n.enabled}
        onChange={(enabled) => void updateSettings({ notifications: { enabled } })}
      />
      <Toggle
        label="Show message previews"
        hint="Off: notifications say who wrote, not what."
        checked={n.showPreview}
        disabled={!n.enabled}
        onChange={(showPreview) => void updateSettings({ notifications: { showPreview } })}
      />
      <Toggle
        label="Play a sound"
        checked={n.sound}
        disabled={!n.enabled}
        onChange={(sound) => void updateSettings({ notifications: { sound } })}
      />
      {notificationsSupported() && (
        <div className="permission-row">
          {permission === 'granted' ? (
            <span className="field-success">This browser may show Parley’s notifications.</span>
          ) : permission === 'denied' ? (
            <span className="field-error">
              This browser blocks Parley’s notifications: allow them in the site settings.
            </span>
          ) : (
            <>
              <span className="muted">This browser needs your permission to show notifications.</span>
              <button
                type="button"
                className="button small"
                onClick={() => void requestNotificationPermission().then(setPermission)}
              >
                Allow notifications
              </button>
            </>
          )}
        </div>
      )}
    </section>
  );
}

function Radio({
  name,
  checked,
  onChange,
  label,
  hint,
}: {
  name: string;
  checked: boolean;
  onChange(): void;
  label: string;
  hint: string;
}) {
  return (
    <label className="radio-row">
      <input type="radio" name={name} checked={checked} onChange={onChange} />
      <span className="toggle-text">
        <span>{label}</span>
        <span className="muted small">{hint}</span>
      </span>
    </label>
  );
}
