import { isEmailHandle, toHandle } from '../../../shared/phone.ts';
import type { LineWithUnread } from '../../../shared/contract/views.ts';
import type { Chat, Line } from '../../../shared/domain.ts';
import { isPartnerApiError } from '../api/errors.ts';
import { ftsQuery } from '../store/search.ts';
import type { Handlers } from './dispatch.ts';
import type { HandlerContext } from './handler-context.ts';
import { draftView } from './draft-view.ts';
import { UserFacingError } from './errors.ts';
import { safeExternalUrl } from './external-links.ts';
import { createSendHandlers } from './send-handlers.ts';
import { createTeamHandlers } from './team-handlers.ts';
import { JoinedSession } from '../team/joined-session.ts';
import { createWorkbenchHandlers } from './workbench-handlers.ts';
import { createWorkspaceHandlers } from './workspace-handlers.ts';

/** Every bridge method's implementation, over the app's handler context. Inputs arrive validated. */
export function createHandlers(core: HandlerContext): Handlers {
  const s = () => core.session;
  const lineWithUnread = (line: Line): LineWithUnread => ({
    ...line,
    unreadChats: s().store.chats.unreadByLine().get(line.id) ?? 0,
  });
  const imessageCache = new Map<string, { available: boolean; at: number }>();

  return {
    // ── workspaces: connected, joined, switched, moved to V3, removed
    ...createWorkspaceHandlers(core),

    // ── chats
    'chats.list': (input) => {
      core.noteInboxListed();
      return s().store.chats.list({
        archived: input.archived,
        unreadOnly: input.unreadOnly,
        limit: input.limit,
        offset: input.offset,
        ...(input.lineId === undefined ? {} : { lineId: input.lineId }),
        ...(input.service ? { service: input.service } : {}),
      });
    },
    'chats.details': ({ chatId }) => {
      const chat = s().store.chats.get(chatId);
      if (!chat) return null;
      const line = s().store.lines.get(chat.lineId) ?? null;
      const customers = chat.handles.filter((h) => !h.isMe);
      const calls =
        line && customers.length === 1
          ? s().store.calls.forChat(chat.id, line.phoneNumber, customers[0]?.identifier as string)
          : [];
      return { chat, line, calls };
    },
    'chats.open': ({ chatId, focused }) => {
      s().sync.setOpenChat(chatId !== null && chatId > 0 ? chatId : null, focused);
      core.notifier?.setFocus(chatId, focused);
    },
    'chats.setFlags': ({ chatId, ...flags }) => {
      if (!s().store.chats.exists(chatId)) throw new UserFacingError('not_found', 'No such chat');
      s().store.chats.setFlags(chatId, flags);
    },
    'chats.refresh': async ({ chatId }) => s().sync.refreshChat(chatId),
    // These name chats and lines by the workspace's own version (V3 ids on V3): through the port.
    'chats.migrationId': async ({ chatId }) => {
      if (!s().store.chats.exists(chatId)) throw new UserFacingError('not_found', 'No such chat');
      const result = await s().messaging.migrationId(chatId, {});
      if (result.v3ChatId) s().sync.reconciler.applyV3ChatId(chatId, result.v3ChatId);
      return result;
    },
    'chats.shareContact': async ({ chatId }) => {
      if (!s().store.chats.exists(chatId)) throw new UserFacingError('not_found', 'No such chat');
      await s().messaging.shareContact(chatId, { priority: 'user' });
    },
    'chats.typing': async ({ chatId, typing }) => {
      // On a team, the customer sees typing only while this agent writes a reply (never a team note).
      const session = s();
      if (session instanceof JoinedSession) return session.team.composerTyping(chatId, typing);
      await session.messaging.typing(chatId, typing, {});
    },
    'chats.search': ({ query, limit }) => {
      const result = s().store.search(query, limit);
      const chats = new Map<number, Chat | null>();
      const chatOf = (id: number) => {
        if (!chats.has(id)) chats.set(id, s().store.chats.get(id) ?? null);
        return chats.get(id) ?? null;
      };
      const match = ftsQuery(query);
      return {
        chats: result.chats,
        contacts: result.contacts,
        messages: result.messages.map((hit) => ({
          message: hit.message,
          snippet: hit.snippet,
          chat: chatOf(hit.message.chatId),
        })),
        notes: (match ? s().store.notes.search(match, limit) : []).map((hit) => ({
          ...hit,
          // A note on a contact opens in their latest conversation (its details panel shows it).
          chat: chatOf(
            hit.note.chatId ?? s().store.workbench.latestChatOfContact(hit.note.contactId ?? 0) ?? 0,
          ),
        })),
      };
    },
    'chats.getDraft': ({ chatId }) => {
      const draft = s().store.drafts.get(chatId);
      return draft ? draftView(s(), draft) : { text: '', attachments: [] };
    },
    'chats.saveDraft': ({ chatId, text, stagedIds, attachmentUrls, ...options }) =>
      s().store.drafts.set(chatId, text, stagedIds, { attachmentUrls, options }),

    // ── messages
    'messages.page': ({ chatId, before, until, limit }) => {
      const through = until === undefined ? [] : s().store.messages.fromKeyToNewest(chatId, until);
      const first = through[0];
      if (until !== undefined && !first)
        throw new UserFacingError('not_found', 'No such message in this chat');
      const cursor = first ? { sentAt: first.sentAt, key: first.key } : before;
      const messages = s().store.messages.page(chatId, {
        limit: limit + 1,
        ...(cursor ? { before: cursor } : {}),
      });
      const hasMoreLocal = messages.length > limit;
      const sync = s().store.chats.syncState(chatId);
      return {
        messages: [...(hasMoreLocal ? messages.slice(1) : messages), ...through],
        hasMoreLocal,
        historyComplete: sync?.historyComplete ?? false,
      };
    },
    'messages.loadOlder': async ({ chatId }) => s().sync.loadOlder(chatId),
    'messages.get': ({ keys }) => s().store.messages.byKeys(keys),
    'messages.thread': ({ key }) => {
      const named = s().store.messages.get(key);
      if (!named) throw new UserFacingError('not_found', 'No such message');
      // Read from the chat's stored timeline until the store indexes replies (the service's
      // GET /messages/{id}/thread can back this later); a chat holds at most a few thousand.
      const timeline = s().store.messages.page(named.chatId, { limit: THREAD_SCAN_LIMIT });
      const rootId = named.replyTo?.messageId ?? named.v3Id;
      if (rootId === undefined) return [named];
      const root = timeline.find((m) => m.v3Id === rootId);
      const replies = timeline.filter((m) => m.replyTo?.messageId === rootId);
      return [...(root ? [root] : []), ...replies];
    },
    'messages.discard': ({ key }) => {
      // A V3 message the service accepted and then failed to deliver (told by message.failed or seen
      // by a poll) is no outbox job: discarding it deletes it (from the service's store; the
      // recipient never got it).
      const message = s().store.messages.get(key);
      if (message?.state === 'failed' && message.fromMe && message.id !== null) s().outbox.delete(key);
      else s().outbox.discard(key);
    },
    'messages.edit': ({ key, text }) => {
      const message = s().store.messages.get(key);
      if (!message) throw new UserFacingError('not_found', 'No such message');
      if (!message.fromMe || message.id === null)
        throw new UserFacingError('forbidden', 'Only messages you sent can be edited');
      const chat = s().store.chats.get(message.chatId);
      if (chat?.service === 'SMS') throw new UserFacingError('forbidden', 'SMS messages cannot be edited');
      if (chat?.apiVersion === 'v3' && Date.now() - message.sentAt > V3_EDIT_WINDOW_MS)
        throw new UserFacingError('forbidden', 'Messages can be edited within 15 minutes of sending');
      s().outbox.edit(key, text);
    },
    'messages.delete': ({ key }) => {
      const message = s().store.messages.get(key);
      if (!message) throw new UserFacingError('not_found', 'No such message');
      if (!message.fromMe) throw new UserFacingError('forbidden', 'Only messages you sent can be deleted');
      s().outbox.delete(key);
    },
    'messages.react': ({ messageId, kind, operation, customEmoji }) => {
      const message = s().store.messages.byId(messageId);
      if (!message) throw new UserFacingError('not_found', 'No such message');
      if (kind !== 'custom') return s().outbox.react(messageId, { kind }, operation);
      if (s().store.chats.get(message.chatId)?.apiVersion !== 'v3')
        throw new UserFacingError('unsupported', 'Custom reactions need a V3 workspace', { field: 'kind' });
      if (message.id === null || !message.v3Id)
        throw new UserFacingError(
          'invalid_input',
          'Only a message the service has accepted can be reacted to',
          {
            field: 'messageId',
          },
        );
      // The contract lets only an emoji through, with the emoji only on a custom reaction.
      s().outbox.react(messageId, { kind, customEmoji: customEmoji as string }, operation);
    },

    // ── attachments
    'attachments.unstage': async ({ ids }) => s().staging.release(ids),
    'attachments.open': async ({ attachmentId, save }) => {
      const file = await core.attachmentFile(attachmentId);
      if (!file) throw new UserFacingError('not_found', 'No such attachment');
      if (!core.ports.openFile)
        throw new UserFacingError('unsupported', 'Open the attachment from the conversation to download it');
      await core.ports.openFile(file.path, { save, filename: file.filename });
    },

    // ── contacts
    'contacts.list': ({ query, limit, offset }) => ({
      contacts: s().store.contacts.list({ limit, offset, ...(query ? { query } : {}) }),
      total: s().store.contacts.count(),
    }),
    'contacts.create': async (fields) => {
      const created = await s().contacts.create(fields);
      s().sync.reconciler.applyContacts([created]);
      return s().store.contacts.get(created.id) ?? fail('contact vanished');
    },
    'contacts.update': async ({ id, fields }) => {
      // The service wants a name, email or phone in every update: carry the stored ones along.
      const current = s().store.contacts.get(id);
      const identifying = current
        ? {
            firstName: current.firstName,
            lastName: current.lastName,
            email: current.email,
            phoneNumber: current.phoneNumber,
          }
        : {};
      const kept = Object.fromEntries(Object.entries(identifying).filter(([, value]) => value !== ''));
      const updated = await s().contacts.update(id, { ...kept, ...fields });
      s().sync.reconciler.applyContacts([updated]);
      return s().store.contacts.get(updated.id) ?? fail('contact vanished');
    },
    'contacts.delete': async ({ id }) => {
      await s()
        .contacts.delete(id)
        .catch((error: unknown) => {
          if (!(isPartnerApiError(error) && error.status === 404)) throw error;
        });
      s().sync.reconciler.applyContactsDeleted([id]);
    },
    'contacts.chats': ({ id }) => {
      const contact = s().store.contacts.get(id);
      if (!contact) throw new UserFacingError('not_found', 'No such contact');
      const identifiers = [contact.phoneNumber, contact.email].filter(Boolean);
      const ids = s().store.chats.idsWithCustomer(identifiers);
      return s()
        .store.chats.byIds(ids)
        .sort((a, b) => b.lastActivityAt - a.lastActivityAt);
    },

    // ── lines
    'lines.list': () => s().store.lines.list().map(lineWithUnread),
    'lines.setForwarding': async ({ lineId, forwardingNumber }) => {
      const trimmed = forwardingNumber.trim();
      let number: string | null = null;
      if (trimmed !== '') {
        number = toHandle(trimmed);
        if (!number || isEmailHandle(number))
          throw new UserFacingError('invalid_input', `"${trimmed}" is not a phone number`, {
            field: 'forwardingNumber',
          });
      }
      if (!s().store.lines.get(lineId))
        throw new UserFacingError('not_found', 'That line is not one of your organization’s', {
          field: 'lineId',
        });
      s().sync.reconciler.applyLineChanged(
        await s().messaging.setForwarding(lineId, number, { priority: 'user' }),
      );
      return lineWithUnread(s().store.lines.get(lineId) as Line);
    },
    'lines.checkImessage': async ({ handle: raw }) => {
      const handle = toHandle(raw);
      if (!handle)
        throw new UserFacingError('invalid_input', `"${raw}" is not a phone number or email address`, {
          field: 'handle',
        });
      const cached = imessageCache.get(handle);
      if (cached && Date.now() - cached.at < 10 * 60_000) return { available: cached.available, handle };
      try {
        const available = await s().messaging.checkImessage(handle, { priority: 'user' });
        imessageCache.set(handle, { available, at: Date.now() });
        return { available, handle };
      } catch (error) {
        // The service allows one check per 10 s: "unknown" is an honest answer, not an error.
        if (isPartnerApiError(error) && error.kind === 'rate_limited') return { available: null, handle };
        throw error;
      }
    },

    // ── webhooks (live status): polling only until the realtime service is attached
    'webhooks.status': () => core.liveStatus(),
    'webhooks.configure': async (input) => core.configureLive(input),

    // ── settings
    'settings.get': () => core.publicSettings(),
    'settings.update': (patch) => {
      const id = core.registry.active()?.id;
      core.settings.update({
        ...(patch.theme ? { theme: patch.theme } : {}),
        ...(patch.typingMode ? { typingMode: patch.typingMode } : {}),
        ...(patch.notifications ? { notifications: patch.notifications } : {}),
        ...((patch.sync || patch.place !== undefined) && id
          ? {
              workspaces: {
                [id]: { ...patch.sync, ...(patch.place !== undefined ? { place: patch.place } : {}) },
              },
            }
          : {}),
      });
      return core.publicSettings();
    },

    // ── app
    'app.info': () => ({
      name: 'Parley',
      version: core.version,
      host: core.host,
      platform: core.platform,
      demo: core.isDemo,
      apiVersion: core.registry.active()?.apiVersion ?? null,
    }),
    'app.syncStatus': () => s().sync.status,
    'app.storageStatus': () => core.storageStatus(),
    'app.syncNow': () => s().sync.syncNow(),
    'app.openExternal': async ({ url }) => {
      const safe = safeExternalUrl(url);
      if (!safe)
        throw new UserFacingError('invalid_input', 'Only web and email links can be opened', {
          field: 'url',
        });
      await core.ports.openExternal(safe);
    },
    'app.recentCalls': ({ limit }) => s().store.calls.recent(limit),

    // ── the agent's workbench
    ...createWorkbenchHandlers(core),

    // ── sending: every way in passes the outbox's door
    ...createSendHandlers(core),

    // ── the team inbox (joined workspaces only)
    ...createTeamHandlers(core),
  };
}

/** How far back `messages.thread` looks in a chat's stored timeline. */
const THREAD_SCAN_LIMIT = 5_000;
/** V3: a message can be edited for 15 minutes after sending (and at most 5 times: the service counts). */
const V3_EDIT_WINDOW_MS = 15 * 60_000;

function fail(message: string): never {
  throw new UserFacingError('internal', message, { retryable: true });
}
