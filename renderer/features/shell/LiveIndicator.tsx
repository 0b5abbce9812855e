import { useStore } from '../../store/index.ts';
import { reachabilityOf } from '../../store/workspace-slice.ts';

const LABEL = { live: 'Live', polling: 'Polling only', offline: 'Offline' } as const;

/** Always visible: how new messages reach Parley right now. Opens the live status panel. */
export function LiveIndicator() {
  const reach = useStore(reachabilityOf);
  const reason = useStore((s) =>
    s.bridgeConnected ? s.connection.reason : 'Lost the connection to Parley’s core',
  );
  const syncing = useStore((s) => s.sync?.phase === 'initial');
  const setOverlay = useStore((s) => s.setOverlay);
  return (
    <button
      type="button"
      className={`live-indicator is-${reach}`}
      onClick={() => setOverlay('live')}
      aria-label={`Connection: ${LABEL[reach]}${reason ? `. ${reason}` : ''}. Show live status`}
      title={reason ?? LABEL[reach]}
    >
      <span className="live-dot" aria-hidden="true" />
      <span>{LABEL[reach]}</span>
      {syncing && <span className="live-sub">syncing…</span>}
    </button>
  );
}
