import type { EventName, Events } from '../../../shared/contract/events.ts';
import type { ServiceSession } from '../session.ts';
import type { SettingsStore } from '../settings/index.ts';
import type { Notifier } from './notifier.ts';

type Emit = <E extends EventName>(event: E, payload: Events[E]) => void;

/**
 * An open session's notices, as the notification settings say: customers' new messages (the
 * notifier decides which, from the messages the store's event carries) and snoozes that returned.
 * Returns what detaches them when the session closes.
 */
export function notifyFrom(
  session: ServiceSession,
  notifier: Notifier,
  settings: SettingsStore,
  emit: Emit,
): Array<() => void> {
  return [
    session.store.events.on('messages.changed', ({ chatId, keys, messages }) => {
      const { enabled, showPreview } = settings.get().notifications;
      if (!enabled) return;
      for (const notice of notifier.consider(chatId, keys, showPreview, messages))
        emit('notification.incoming', notice);
    }),
    session.scheduler.onSnoozeWoke((snooze) => {
      const { enabled, showPreview } = settings.get().notifications;
      const notice = enabled && notifier.snoozeReturned(snooze, showPreview);
      if (notice) emit('notification.incoming', notice);
    }),
  ];
}
