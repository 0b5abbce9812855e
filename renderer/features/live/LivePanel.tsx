import { RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { TunnelProvider } from '../../../shared/contract/views.ts';
import { configureLive, refreshLiveStatus, syncNow } from '../../actions/workspace.ts';
import { Modal } from '../../components/Modal.tsx';
import { useClock } from '../../hooks/use-clock.ts';
import { errorText } from '../../lib/errors.ts';
import { formatAgo } from '../../lib/format.ts';
import { getState, useStore } from '../../store/index.ts';
import { reachabilityOf } from '../../store/workspace-slice.ts';
import { LabeledInput } from '../../components/FormField.tsx';
import { RadioRow, Toggle } from '../../components/Toggle.tsx';

const PROVIDERS: ReadonlyArray<{ value: TunnelProvider; label: string; hint: string }> = [
  {
    value: 'direct',
    label: 'Direct',
    hint: 'The service reaches this computer directly (same network, or the demo).',
  },
  { value: 'cloudflare', label: 'Cloudflare Tunnel', hint: 'A quick tunnel; needs the cloudflared program.' },
  { value: 'ngrok', label: 'ngrok', hint: 'Needs your ngrok authtoken.' },
  { value: 'custom', label: 'Custom URL', hint: 'Your own public URL forwarding to Parley.' },
];

/** Live status: how events arrive, the subscription's health, the last event, and what polling does. */
export function LivePanel() {
  const live = useStore((s) => s.live);
  const settings = useStore((s) => s.settings);
  const reach = useStore(reachabilityOf);
  const bridge = useStore((s) => s.bridgeConnected);
  const now = useClock();
  const [enabled, setEnabled] = useState(settings?.sync.webhooksEnabled ?? false);
  const [provider, setProvider] = useState<TunnelProvider>(settings?.sync.tunnel.provider ?? 'direct');
  const [customUrl, setCustomUrl] = useState(settings?.sync.tunnel.customPublicUrl ?? '');
  const [authtoken, setAuthtoken] = useState('');
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' | 'error'; text?: string }>({
    kind: 'idle',
  });

  // Changes of state arrive as events; the subscription's counters and the last event's time move
  // without one, so they are read again while the panel is open.
  useEffect(() => {
    void refreshLiveStatus();
    const timer = setInterval(() => void refreshLiveStatus(), 15_000);
    return () => clearInterval(timer);
  }, []);

  const save = async () => {
    setState({ kind: 'saving' });
    try {
      await configureLive({
        enabled,
        provider,
        ...(provider === 'custom' && customUrl.trim() ? { customPublicUrl: customUrl.trim() } : {}),
        ...(provider === 'ngrok' && authtoken ? { ngrokAuthtoken: authtoken } : {}),
      });
      setAuthtoken('');
      setState({ kind: 'saved', text: 'Saved.' });
    } catch (error) {
      setState({ kind: 'error', text: errorText(error) });
    }
  };

  const sync = live?.sync;
  const headline = !bridge
    ? 'Reconnecting to Parley’s core…'
    : reach === 'live'
      ? 'Live: new messages arrive as they happen'
      : reach === 'polling'
        ? 'Polling only: new messages arrive on the next check'
        : 'Offline: the service cannot be reached';

  return (
    <Modal title="Live status" onClose={() => getState().setOverlay(null)} width={560}>
      <div className={`live-headline is-${reach}`}>
        <span className="live-dot" aria-hidden="true" />
        <div>
          <p className="live-headline-text">{headline}</p>
          {live?.reason && <p className="muted small">{live.reason}</p>}
        </div>
      </div>
      <dl className="details-list wide">
        <dt>Webhooks</dt>
        <dd>
          {live?.subscription
            ? `${live.subscription.active ? 'Subscribed' : 'Subscription inactive'} · ${live.subscription.deliveryAttempts} delivery attempts${
                live.subscription.lastDeliveredAt
                  ? ` · last delivered ${formatAgo(now - live.subscription.lastDeliveredAt)}`
                  : ''
              }`
            : 'No subscription'}
        </dd>
        <dt>Public URL</dt>
        <dd>{live?.publicUrl ? <code>{live.publicUrl}</code> : <span className="muted">None</span>}</dd>
        <dt>Last event</dt>
        <dd>
          {live?.lastEventAt ? formatAgo(now - live.lastEventAt) : <span className="muted">None yet</span>}
        </dd>
        <dt>Polling</dt>
        <dd>
          {sync
            ? `${phaseText(sync.phase)} · every ${Math.round((live?.pollIntervalMs ?? 0) / 1000)} s in the background${
                settings ? `, ${Math.round(settings.sync.pollIntervalMs / 1000)} s for the open chat` : ''
              }`
            : '—'}
        </dd>
        <dt>Last sync</dt>
        <dd>
          {sync?.lastSyncedAt ? formatAgo(now - sync.lastSyncedAt) : '—'}
          {sync ? ` · ${sync.chatsKnown.toLocaleString()} chats known` : ''}
          {sync?.error && <span className="field-error"> {sync.error}</span>}
        </dd>
      </dl>
      <button type="button" className="button small" onClick={() => void syncNow()}>
        <RefreshCw size={13} aria-hidden="true" /> Sync now
      </button>

      {live?.provider === 'relay' ? (
        <p className="muted small">
          Live events come from your team’s relay: it holds the organization’s one subscription.
        </p>
      ) : (
        <form
          className="form live-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <h3>Webhooks</h3>
          <Toggle
            label="Receive events by webhook"
            hint="Faster than polling; polling continues as a safety net."
            checked={enabled}
            onChange={setEnabled}
          />
          <fieldset className="radio-list" disabled={!enabled}>
            <legend>Tunnel</legend>
            {PROVIDERS.map((p) => (
              <RadioRow
                key={p.value}
                name="provider"
                label={p.label}
                hint={p.hint}
                checked={provider === p.value}
                onSelect={() => setProvider(p.value)}
              />
            ))}
          </fieldset>
          {enabled && provider === 'custom' && (
            <LabeledInput
              id="live-custom-url"
              label="Public URL"
              type="url"
              value={customUrl}
              onChange={(e) => setCustomUrl(e.target.value)}
              placeholder="https://parley.example.com"
            />
          )}
          {enabled && provider === 'ngrok' && (
            <LabeledInput
              id="live-ngrok"
              label="ngrok authtoken"
              type="password"
              autoComplete="off"
              value={authtoken}
              onChange={(e) => setAuthtoken(e.target.value)}
              placeholder="Kept in the system keychain"
            />
          )}
          {state.text && (
            <p className={state.kind === 'error' ? 'form-error' : 'field-success'} role="status">
              {state.text}
            </p>
          )}
          <div className="form-actions">
            <button type="submit" className="button primary" disabled={state.kind === 'saving'}>
              {state.kind === 'saving' ? 'Applying…' : 'Apply'}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

function phaseText(phase: string): string {
  switch (phase) {
    case 'initial':
      return 'First sync in progress';
    case 'incremental':
      return 'Checking for changes';
    case 'idle':
      return 'Idle';
    case 'offline':
      return 'Waiting for the network';
    case 'error':
      return 'Failing';
    default:
      return phase;
  }
}
