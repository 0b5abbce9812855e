import { X } from 'lucide-react';
import { useEffect } from 'react';
import { useStore } from '../../store/index.ts';
import type { Toast } from '../../store/ui-slice.ts';

/** Short confirmations and errors, bottom-centre; errors stay longer. */
export function Toasts() {
  const toasts = useStore((s) => s.toasts);
  return (
    <div className="toasts">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useStore((s) => s.dismissToast);
  useEffect(() => {
    const timer = setTimeout(() => dismiss(toast.id), toast.tone === 'error' ? 8000 : 2500);
    return () => clearTimeout(timer);
  }, [toast, dismiss]);
  return (
    <div className={`toast is-${toast.tone}`} role={toast.tone === 'error' ? 'alert' : undefined}>
      <span>{toast.text}</span>
      <button
        type="button"
        className="icon-button small"
        aria-label="Dismiss"
        onClick={() => dismiss(toast.id)}
      >
        <X size={13} />
      </button>
    </div>
  );
}

/** The one polite live region for new inbound messages (the timeline itself is aria-live=off). */
export function Announcer() {
  const announcement = useStore((s) => s.announcement);
  return (
    <div
      className="visually-hidden"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      aria-label="New messages"
    >
      {/* A trailing invisible mark that alternates makes a repeated text count as a change. */}
      {announcement.text}
      {announcement.id % 2 ? '\u200b' : ''}
    </div>
  );
}
