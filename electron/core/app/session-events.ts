/**
 * What an open session tells the page: every store event as it is, notifications as the settings
 * say, the live status whenever the sync or the service's reachability changes, and on a joined
 * workspace the team's changes and mentions. Returns what detaches them all when the session closes.
 */
import type { EventName, Events } from '../../../shared/contract/events.ts';
import { JoinedSession } from '../team/joined-session.ts';
import type { ServiceSession } from '../session.ts';
import type { SettingsStore } from '../settings/index.ts';
import { STORE_EVENT_NAMES } from '../store/events.ts';
import { forwardTeamEvents } from './joined-workspace.ts';
import { notifyFrom } from './notifications.ts';
import type { Notifier } from './notifier.ts';

export function forwardSessionEvents(
  session: ServiceSession,
  to: {
    notifier: Notifier;
    settings: SettingsStore;
    emit: <E extends EventName>(event: E, payload: Events[E]) => void;
    announceLive: () => void;
  },
): Array<() => void> {
  return [
    ...STORE_EVENT_NAMES.map((name) => session.store.events.on(name, (changes) => to.emit(name, changes))),
    ...notifyFrom(session, to.notifier, to.settings, to.emit),
    session.sync.onStatus(() => to.announceLive()),
    session.reachability.onChange(() => to.announceLive()),
    ...(session instanceof JoinedSession ? forwardTeamEvents(session, to.emit) : []),
  ];
}
