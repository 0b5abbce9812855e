import { FlaskConical, HardDrive, WifiOff } from 'lucide-react';
import { storageTitle } from '../../lib/errors.ts';
import { useStore } from '../../store/index.ts';
import { reachabilityOf } from '../../store/workspace-slice.ts';

/** First run lands in the simulated demo: say so, and offer the real thing. */
export function DemoBanner() {
  const demo = useStore((s) => s.appInfo?.demo ?? false);
  const setView = useStore((s) => s.setView);
  if (!demo) return null;
  return (
    <div className="banner is-demo" role="region" aria-label="Demo workspace">
      <FlaskConical size={15} aria-hidden="true" />
      <span>
        <strong>This is a simulated demo workspace.</strong> Customers here are simulated: they type, reply
        and react.
      </span>
      <button type="button" className="button small primary" onClick={() => setView('settings')}>
        Connect your organization
      </button>
    </div>
  );
}

/** Reading and drafting keep working offline; sends wait in the outbox. */
export function OfflineBanner() {
  const reach = useStore(reachabilityOf);
  const bridge = useStore((s) => s.bridgeConnected);
  const reason = useStore((s) => s.sync?.error ?? s.connection.reason);
  if (reach !== 'offline') return null;
  return (
    <div className="banner is-offline" role="status">
      <WifiOff size={15} aria-hidden="true" />
      <span>
        <strong>{bridge ? 'Offline.' : 'Reconnecting to Parley…'}</strong>{' '}
        {bridge ? (reason ?? 'The service cannot be reached.') : ''} You can keep reading and writing:
        messages are queued and sent when the connection returns.
      </span>
    </div>
  );
}

/** The disk refused a write (full, read-only, no permission): say what to do; gone once writes work. */
export function StorageBanner() {
  const problem = useStore((s) => s.storageProblem);
  if (!problem) return null;
  return (
    <div className="banner is-storage" role="alert">
      <HardDrive size={15} aria-hidden="true" />
      <span>
        <strong>{storageTitle(problem.code)}</strong> {problem.message}
      </span>
    </div>
  );
}
