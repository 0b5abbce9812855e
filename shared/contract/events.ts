/** Events the core pushes to the renderer: name → payload. */
import type { Chat, Message } from '../domain.ts';
import type { StorageStatus } from './errors.ts';
import type { ChatSnooze, IncomingNotice, LiveStatus, PublicSettings, WorkspaceList } from './views.ts';
import type { TeamChanged, TeamMentionNotice } from './team-views.ts';

/**
 * The most messages one `messages.changed` carries, and chats one `chats.changed` carries: a bigger
 * change (a sync page) goes as ids only, and the renderer fetches what it shows.
 */
export const EVENT_MESSAGES_MAX = 25;
export const EVENT_CHATS_MAX = 50;

/**
 * Chats were added or changed (inbox rows, previews, unread counts, typing, snoozes). With `chats`,
 * the renderer patches its list and its snoozed view in place; without (too many for one event), it
 * reloads both.
 */
export interface ChatsChanged {
  chatIds: number[];
  /** The summaries of `chatIds` as `chats.list` gives them; an id with none is gone. */
  chats?: Chat[];
  /**
   * What places them in the inbox as `chats.list` does, sent with `chats`: which of `chatIds` are
   * snoozed (out of the list), and every chat back from a snooze (listed right after the pinned).
   */
  snoozed?: number[];
  woken?: number[];
  /** The snooze of each of `chatIds` that has one (sleeping or back); a chat with none is not snoozed. */
  snoozes?: ChatSnooze[];
}

/**
 * Messages of a chat were added or changed. With `messages` (at most EVENT_MESSAGES_MAX), they are
 * the stored messages of `keys`, to apply as they are; without, fetch them with `messages.get`.
 */
export interface MessagesChanged {
  chatId: number;
  keys: string[];
  messages?: Message[];
}

export interface Events {
  'chats.changed': ChatsChanged;
  /** Chats disappeared (a provisional chat became real, a workspace was left). */
  'chats.removed': { chatIds: number[] };
  /** A provisional new chat got its real id. */
  'chats.replaced': { from: number; to: number };
  'messages.changed': MessagesChanged;
  /** Messages of a chat were deleted or discarded. */
  'messages.removed': { chatId: number; keys: string[] };
  /** Who is typing in a chat now. */
  'typing.changed': { chatId: number; identifiers: string[] };
  'contacts.changed': { ids: number[] };
  'contacts.removed': { ids: number[] };
  'lines.changed': { ids: number[] };
  'calls.changed': { ids: string[] };
  /** Messages held back (send later, undo grace period) of these chats changed. */
  'scheduled.changed': { chatIds: number[] };
  /**
   * How new messages reach Parley now (live / polling / reconnecting / offline, with the reason) and
   * what the sync is doing: the whole status, sent on every change of either, to apply as it is.
   */
  'live.status': LiveStatus;
  /** The local store could not write (disk full, read-only, no permission) or writes again. */
  'storage.status': StorageStatus;
  /** The active workspace or the list changed: the renderer reloads its slices. */
  'workspaces.changed': WorkspaceList;
  'settings.changed': PublicSettings;
  /**
   * A new inbound message worth a notification (not already shown, window unfocused or another chat
   * open). The Electron host shows it natively; the browser renderer through Web Notifications.
   */
  'notification.incoming': IncomingNotice;
  /** The host asks the UI to open a chat (notification clicked, menu). */
  'app.openChat': { chatId: number };
  /** The host asks the UI to show a view (menu shortcuts). */
  'app.command': { command: 'newChat' | 'quickSwitcher' | 'settings' | 'shortcuts' | 'search' };
  /** Joined workspaces: the team's presence, assignments, counts or settings changed (what changed). */
  'team.changed': TeamChanged;
  /** Joined workspaces: a teammate named this agent in a team note (show it as a notification). */
  'team.mention': TeamMentionNotice;
}

export type EventName = keyof Events;

export const EVENT_NAMES: readonly EventName[] = [
  'chats.changed',
  'chats.removed',
  'chats.replaced',
  'messages.changed',
  'messages.removed',
  'typing.changed',
  'contacts.changed',
  'contacts.removed',
  'lines.changed',
  'calls.changed',
  'scheduled.changed',
  'live.status',
  'storage.status',
  'workspaces.changed',
  'settings.changed',
  'notification.incoming',
  'app.openChat',
  'app.command',
  'team.changed',
  'team.mention',
];
