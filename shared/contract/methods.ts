/**
 * The bridge's methods: name → input schema (validated in the main process, whatever the host) and
 * output type. Grouped by domain; the renderer calls them as `parley.<domain>.<method>(input)`.
 * Every method rejects with a BridgeError ({code, message, retryable, field}).
 */
import { z } from 'zod';
import type { Call, Chat, Contact, Message, SyncStatus } from '../domain.ts';
import { REACTION_KINDS } from '../domain.ts';
import type { StorageStatus } from './errors.ts';
import type { StagedAttachment } from './staged.ts';
import { BUBBLE_EFFECTS, PREFERRED_SERVICES, SCREEN_EFFECTS } from './effects.ts';
import { cannedBody, cannedGroup, cannedTitle } from '../canned-file.ts';
import { MAX_CANNED_ATTACHMENTS } from '../workbench.ts';
import {
  MAX_AGENT_NAME_CHARS,
  MAX_CANNED_FILE_BYTES,
  MAX_GROUP_NAME_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_NOTE_CHARS,
} from './limits.ts';
import { EMPTY_MESSAGE, isSendable } from '../message-rules.ts';
import { CLOCK_TIME, MAX_UNDO_SECONDS } from '../schedule.ts';
import { teamMethods } from './team-methods.ts';
import type {
  ApiVersionCheck,
  AppInfo,
  CannedReply,
  ChatContext,
  ChatDetails,
  Draft,
  LineWithUnread,
  LiveStatus,
  MessagePage,
  Note,
  PublicSettings,
  SearchResults,
  WaitingChat,
  WorkbenchSettings,
  ScheduledSend,
  SnoozedChat,
  ChatSnooze,
  WorkspaceInfo,
  WorkspaceList,
} from './views.ts';

export { BUBBLE_EFFECTS, PREFERRED_SERVICES, SCREEN_EFFECTS };

/** A method: its input schema, and its output type (carried by the type only). */
export interface MethodSpec<I extends z.ZodType = z.ZodType, O = unknown> {
  input: I;
  /** Phantom: never set at run time. */
  readonly output?: O;
}

function method<I extends z.ZodType>(input: I) {
  return <O>(): MethodSpec<I, O> => ({ input });
}

const none = z.object({}).strict();
const chatId = z.number().int().safe();
const messageKey = z.string().min(1).max(100);
const stagedIds = z.array(z.string().uuid()).max(20).default([]);
const attachmentUrls = z
  .array(z.url({ protocol: /^https?$/ }))
  .max(10)
  .default([]);
const text = z.string().max(MAX_MESSAGE_CHARS);
const noteText = z.string().trim().min(1).max(MAX_NOTE_CHARS);
const clockTime = z.string().regex(CLOCK_TIME, 'Use a time like 07:30');

/** V3: the message this one answers (by its key; the core finds its V3 id), and which part of it. */
const replyTo = z.object({ messageKey, partIndex: z.number().int().min(0).max(99).optional() }).strict();
/** V3: one effect per message; iMessage chats only. */
const effect = z.discriminatedUnion('type', [
  z.object({ type: z.literal('screen'), name: z.enum(SCREEN_EFFECTS) }).strict(),
  z.object({ type: z.literal('bubble'), name: z.enum(BUBBLE_EFFECTS) }).strict(),
]);
/** V3 options of a send; a held-back send (undo, send later) keeps them until it goes out. */
const v3SendFields = {
  replyTo: replyTo.optional(),
  effect: effect.optional(),
  preferredService: z.enum(PREFERRED_SERVICES).optional(),
};
/** One emoji (a grapheme, possibly with modifiers and joiners): a V3 custom reaction. */
const customEmoji = z
  .string()
  .min(1)
  .max(32)
  .regex(
    /^\p{Extended_Pictographic}(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\u200d|\ufe0f|\p{M})*$/u,
    {
      message: 'A custom reaction is one emoji',
    },
  );
const contactFields = z
  .object({
    firstName: z.string().max(200),
    lastName: z.string().max(200),
    email: z.string().max(320),
    phoneNumber: z.string().max(40),
    company: z.string().max(200),
    title: z.string().max(200),
    location: z.string().max(200),
    /** Owner by the email of a user of the organization. */
    ownerEmail: z.string().max(320),
  })
  .partial()
  .strict();

export const methods = {
  // ── workspaces ────────────────────────────────────────────────────────────────────────────
  /** Lists workspaces and which is active. Never fails. */
  'workspaces.list': method(none)<WorkspaceList>(),
  /**
   * Tries a token on V2 and V3 without connecting anything, so the agent sees which versions work
   * before choosing. Fails like `add` (V2 must work: contacts always go through it).
   */
  'workspaces.probe': method(
    z
      .object({
        baseUrl: z.string().trim().min(1).max(2048),
        token: z.string().min(1).max(4096),
        tokenHeader: z.string().trim().max(100).optional(),
      })
      .strict(),
  )<ApiVersionCheck>(),
  /**
   * Connects a workspace: validates with a cheap authenticated call first, then keeps the token in
   * the OS keychain. Fails with `unauthorized` (token refused), `network` (unreachable), `tls`,
   * `not_found`/`invalid_response` (not a Partner Messaging Service at that URL), `invalid_input`.
   */
  'workspaces.add': method(
    z
      .object({
        name: z.string().trim().min(1).max(80),
        baseUrl: z.string().trim().min(1).max(2048),
        token: z.string().min(1).max(4096),
        tokenHeader: z.string().trim().max(100).optional(),
        /** Default: V3 when the token works there, else V2. */
        apiVersion: z.enum(['v2', 'v3']).optional(),
      })
      .strict(),
  )<WorkspaceInfo>(),
  /**
   * Joins the organization a team's relay serves, with the join code from `npm run relay -- agent
   * add` (it carries the relay's address; `relayUrl` only when this desktop reaches the relay by
   * another). The agent's credentials go to the OS keychain; no token comes to this desktop. The new
   * workspace becomes active, like `add`. Fails with `invalid_input` (field `joinCode`: not a join
   * code, or a damaged one; `relayUrl`), `network` (the relay cannot be reached), `unauthorized`
   * (the relay refused the credentials: the agent was removed).
   */
  'workspaces.join': method(
    z
      .object({
        joinCode: z.string().trim().min(1).max(4096),
        relayUrl: z.string().trim().max(2048).optional(),
        name: z.string().trim().max(80).optional(),
      })
      .strict(),
  )<WorkspaceInfo>(),
  /**
   * Moves a workspace to another API version after checking the token works there; its history,
   * drafts, pins and read state stay. Answers once the active workspace's session has reopened on
   * that version. Fails with `not_found`, `invalid_input` (field `apiVersion`:
   * the service refuses that version), and the failures of `add`.
   */
  'workspaces.setApiVersion': method(
    z.object({ id: z.string().min(1).max(64), apiVersion: z.enum(['v2', 'v3']) }).strict(),
  )<WorkspaceInfo>(),
  /** Makes a workspace active (its inbox, its sync). Fails with `not_found`. */
  'workspaces.switch': method(z.object({ id: z.string().min(1).max(64) }).strict())<WorkspaceList>(),
  /** Renames a workspace. Fails with `not_found`, `invalid_input`. */
  'workspaces.rename': method(
    z.object({ id: z.string().min(1).max(64), name: z.string().trim().min(1).max(80) }).strict(),
  )<WorkspaceInfo>(),
  /** Replaces a workspace's token after validating it. Same failures as `add`. */
  'workspaces.updateToken': method(
    z.object({ id: z.string().min(1).max(64), token: z.string().min(1).max(4096) }).strict(),
  )<WorkspaceInfo>(),
  /** Removes a workspace, its keychain entries and its local data. The demo returns when none remain. */
  'workspaces.remove': method(z.object({ id: z.string().min(1).max(64) }).strict())<WorkspaceList>(),

  // ── chats ─────────────────────────────────────────────────────────────────────────────────
  /** The inbox, ordered by pinned then last activity. Reads the local store only; never fails. */
  'chats.list': method(
    z
      .object({
        lineId: z.number().int().optional(),
        archived: z.boolean().default(false),
        unreadOnly: z.boolean().default(false),
        service: z.string().max(20).optional(),
        limit: z.number().int().min(1).max(5000).default(500),
        offset: z.number().int().min(0).default(0),
      })
      .strict(),
  )<Chat[]>(),
  /** One chat with its line and call records; null when unknown. */
  'chats.details': method(z.object({ chatId }).strict())<ChatDetails | null>(),
  /**
   * Tells the core which chat is on screen: it is polled often, and marked read after a moment
   * while the window is focused. `chatId: null` when none is.
   */
  'chats.open': method(z.object({ chatId: chatId.nullable(), focused: z.boolean() }).strict())<void>(),
  /** Local-only flags: pin, archive, mark unread (never sends a read receipt). */
  'chats.setFlags': method(
    z
      .object({
        chatId,
        pinned: z.boolean().optional(),
        archived: z.boolean().optional(),
        markedUnread: z.boolean().optional(),
      })
      .strict(),
  )<void>(),
  /**
   * Starts a conversation (or continues the existing one with these recipients): the message is
   * queued at once. Recipients are E.164 numbers or emails; several make a group. Fails with
   * `invalid_input` (field `recipients.N`), `not_found` (line).
   */
  'chats.start': method(
    z
      .object({
        lineId: z.number().int(),
        recipients: z.array(z.string().min(1).max(320)).min(1).max(30),
        displayName: z.string().trim().max(MAX_GROUP_NAME_CHARS).optional(),
        text,
        stagedIds,
        attachmentUrls,
      })
      .strict(),
  )<{ chatId: number; messageKey: string }>(),
  /** Fetches the chat and its newest messages from the service now. */
  'chats.refresh': method(z.object({ chatId }).strict())<void>(),
  /** The chat's V3 id (migration lookup). `migrated: false` when the service cannot migrate it. */
  'chats.migrationId': method(z.object({ chatId }).strict())<{
    v3ChatId: string | null;
    migrated: boolean;
  }>(),
  /** Shares the organization's contact card in the chat. Fails with `forbidden` when not enabled. */
  'chats.shareContact': method(z.object({ chatId }).strict())<void>(),
  /** Shows or clears the agent's typing indicator (manual typing mode). */
  'chats.typing': method(z.object({ chatId, typing: z.boolean() }).strict())<void>(),
  /** Local full-text search over names, numbers and message text. */
  'chats.search': method(
    z
      .object({
        query: z.string().trim().min(1).max(200),
        limit: z.number().int().min(1).max(200).default(50),
      })
      .strict(),
  )<SearchResults>(),
  /** The chat's draft (text, files, links and V3 options: reply, effect, service), kept across restarts. */
  'chats.getDraft': method(z.object({ chatId }).strict())<Draft>(),
  /** Saves the chat's draft, all of it; what it leaves out is no longer part of it. */
  'chats.saveDraft': method(
    z.object({ chatId, text, stagedIds, attachmentUrls, ...v3SendFields }).strict(),
  )<void>(),

  // ── messages ──────────────────────────────────────────────────────────────────────────────
  /**
   * A page of the timeline from the local store, oldest first: the `limit` messages before `before`
   * (the newest when absent). With `until` (a message of this chat, e.g. a search hit), every message
   * from that one to the newest plus up to `limit` older ones above it, so the timeline can show it
   * however far back it is. Fails with `not_found` when the chat holds no such message.
   */
  'messages.page': method(
    z
      .object({
        chatId,
        before: z.object({ sentAt: z.number(), key: messageKey }).strict().optional(),
        until: messageKey.optional(),
        limit: z.number().int().min(1).max(1000).default(50),
      })
      .strict()
      .refine((input) => !(input.before && input.until), {
        message: 'Give `before` or `until`, not both',
        path: ['until'],
      }),
  )<MessagePage>(),
  /** Fetches older history from the service into the store. Fails with `network` etc. */
  'messages.loadOlder': method(z.object({ chatId }).strict())<{ added: number; complete: boolean }>(),
  /** Messages by key (after a `messages.changed` event). */
  'messages.get': method(z.object({ keys: z.array(messageKey).min(1).max(1000) }).strict())<Message[]>(),
  /**
   * Queues a message: the optimistic bubble exists when this returns, under `clientKey` (a UUID the
   * renderer mints, also the send's idempotency key; the core mints one when absent), so the
   * renderer's echo and the stored message share one key from Enter to delivered. Sending the same
   * key again returns the existing message and sends nothing. Fails with `conflict` (the key names a
   * different message), `invalid_input` (a malformed key) and the refusals every way a message
   * leaves shares (the outbox's door, electron/core/outbox/send-door.ts), in the same words whichever
   * method meets them: `not_found` (no such chat, a file no longer staged, a reply to a message
   * elsewhere), `invalid_input` (no text and no attachment: "text: Type a message or add an
   * attachment"), `opted_out` (the recipient asked you to stop), and `unsupported` for a V3-only
   * option on a V2 workspace or an effect outside iMessage.
   */
  'messages.send': method(
    z
      .object({
        chatId,
        text,
        stagedIds,
        attachmentUrls,
        clientKey: z.uuid().optional(),
        /** V3: answer a message in its thread. */
        replyTo: replyTo.optional(),
        /** V3, iMessage only: a screen or bubble effect. */
        effect: effect.optional(),
        /** V3: the service to try first; absent lets the service choose (auto). */
        preferredService: z.enum(PREFERRED_SERVICES).optional(),
      })
      .strict()
      // The outbox's door checks this too (every way out passes it); here it is the same rule in the
      // same words, so a malformed call is refused before it reaches a handler.
      .refine(
        (input) =>
          isSendable({
            text: input.text,
            attachmentCount: input.stagedIds.length + input.attachmentUrls.length,
          }),
        { message: EMPTY_MESSAGE, path: ['text'] },
      ),
  )<{ key: string }>(),
  /**
   * V3: a thread from the local store: its originating message, then its replies, oldest first (any
   * message of the thread may be named). Fails with `not_found`.
   */
  'messages.thread': method(z.object({ key: messageKey }).strict())<Message[]>(),
  /**
   * Sends a failed message again (same idempotency key: never twice). Fails with `conflict` (a lasting
   * failure, or a message with attachments) and, as it passes the door again, the refusals of
   * `messages.send` (`opted_out` after an opt-out since, `unsupported`, …).
   */
  'messages.retry': method(z.object({ key: messageKey }).strict())<void>(),
  /** Drops a failed or queued message and its staged files. */
  'messages.discard': method(z.object({ key: messageKey }).strict())<void>(),
  /** Edits one of your sent messages (not SMS). Fails with `forbidden`/`invalid_input`. */
  'messages.edit': method(
    z.object({ key: messageKey, text: z.string().trim().min(1).max(MAX_MESSAGE_CHARS) }).strict(),
  )<void>(),
  /** Deletes one of your sent messages. */
  'messages.delete': method(z.object({ key: messageKey }).strict())<void>(),
  /**
   * Adds or removes one of the six reactions on a message, or (V3 workspaces) any emoji with
   * `kind: 'custom'` and `customEmoji`. Fails with `not_found`, `invalid_input`, and `unsupported`
   * for a custom reaction on V2.
   */
  'messages.react': method(
    z
      .object({
        messageId: z.number().int().positive(),
        kind: z.enum([...REACTION_KINDS, 'custom']),
        operation: z.enum(['add', 'remove']),
        /** V3: the emoji of a `custom` reaction (required with it, refused without). */
        customEmoji: customEmoji.optional(),
      })
      .strict()
      .refine((input) => (input.kind === 'custom') === (input.customEmoji !== undefined), {
        message: 'A custom reaction needs its emoji, and only a custom reaction has one',
        path: ['customEmoji'],
      }),
  )<void>(),

  // ── attachments ───────────────────────────────────────────────────────────────────────────
  // Staging is not a method: a file reaches the core only as the user handed it over (see
  // docs/bridge.md "Staging files"), never as a path named by the renderer.
  /** Forgets staged files that will not be sent. */
  'attachments.unstage': method(
    z.object({ ids: z.array(z.string().uuid()).min(1).max(50) }).strict(),
  )<void>(),
  /** Opens a received attachment with the system's viewer, or saves it (Electron); browser: download. */
  'attachments.open': method(
    z.object({ attachmentId: z.string().min(1).max(100), save: z.boolean().default(false) }).strict(),
  )<void>(),

  // ── contacts ──────────────────────────────────────────────────────────────────────────────
  /** Contacts from the local store, by name, optionally filtered (full-text). */
  'contacts.list': method(
    z
      .object({
        query: z.string().trim().max(200).optional(),
        limit: z.number().int().min(1).max(1000).default(200),
        offset: z.number().int().min(0).default(0),
      })
      .strict(),
  )<{ contacts: Contact[]; total: number }>(),
  /** Creates a contact on the service. Fails with `invalid_input` and the field the service named. */
  'contacts.create': method(contactFields)<Contact>(),
  /** Updates a contact. */
  'contacts.update': method(
    z.object({ id: z.number().int().positive(), fields: contactFields }).strict(),
  )<Contact>(),
  /** Deletes a contact. */
  'contacts.delete': method(z.object({ id: z.number().int().positive() }).strict())<void>(),
  /** The chats with this contact's number or email. */
  'contacts.chats': method(z.object({ id: z.number().int().positive() }).strict())<Chat[]>(),

  // ── lines ─────────────────────────────────────────────────────────────────────────────────
  /** The organization's lines with unread counts. */
  'lines.list': method(none)<LineWithUnread[]>(),
  /** Sets (or with an empty string, clears) a line's call forwarding number. */
  'lines.setForwarding': method(
    z.object({ lineId: z.number().int().positive(), forwardingNumber: z.string().max(40) }).strict(),
  )<LineWithUnread>(),
  /** Whether a number can receive iMessage (debounced and cached by the core; may be rate-limited). */
  'lines.checkImessage': method(z.object({ handle: z.string().min(1).max(320) }).strict())<{
    available: boolean | null;
    handle: string;
  }>(),

  // ── webhooks (live status) ────────────────────────────────────────────────────────────────
  /** What the live connection is doing: live / polling only / reconnecting, and why. */
  'webhooks.status': method(none)<LiveStatus>(),
  /** Chooses the tunnel provider (and its settings) for the active workspace. */
  'webhooks.configure': method(
    z
      .object({
        enabled: z.boolean(),
        provider: z.enum(['direct', 'ngrok', 'cloudflare', 'custom']),
        customPublicUrl: z.url({ protocol: /^https?$/ }).optional(),
        ngrokAuthtoken: z.string().min(1).max(500).optional(),
      })
      .strict(),
  )<LiveStatus>(),

  // ── settings ──────────────────────────────────────────────────────────────────────────────
  /** The settings the UI shows. */
  'settings.get': method(none)<PublicSettings>(),
  /** Changes settings; returns them as stored. */
  'settings.update': method(
    z
      .object({
        theme: z.enum(['light', 'dark', 'system']).optional(),
        typingMode: z.enum(['automatic', 'manual']).optional(),
        notifications: z
          .object({ enabled: z.boolean(), showPreview: z.boolean(), sound: z.boolean() })
          .partial()
          .strict()
          .optional(),
        sync: z
          .object({
            pollIntervalMs: z.number().int().min(1000).max(60_000),
            backgroundPollIntervalMs: z.number().int().min(5000).max(3_600_000),
          })
          .partial()
          .strict()
          .optional(),
        /** Where the agent is in the active workspace (null: no chat open). */
        place: z.object({ chatId, topKey: messageKey.nullable() }).strict().nullable().optional(),
      })
      .strict(),
  )<PublicSettings>(),

  // ── app ───────────────────────────────────────────────────────────────────────────────────
  /** Name, version, host kind, and whether the active workspace is the demo. */
  'app.info': method(none)<AppInfo>(),
  /** Where the sync stands. */
  'app.syncStatus': method(none)<SyncStatus>(),
  /**
   * Whether the open workspace's store can write now, or why the last workspace could not even open
   * (full disk, read-only folder). A (re)loaded renderer asks once; `storage.status` tells every
   * change after that. Never fails: no workspace open and no problem is `{ problem: null }`.
   */
  'app.storageStatus': method(none)<StorageStatus>(),
  /** Polls everything now (the user asked). */
  'app.syncNow': method(none)<void>(),
  /** Opens an http(s) or mailto link in the system browser; anything else is refused. */
  'app.openExternal': method(z.object({ url: z.string().max(4096) }).strict())<void>(),
  /** The recent calls of the organization (missed calls, voicemails). */
  'app.recentCalls': method(z.object({ limit: z.number().int().min(1).max(200).default(50) }).strict())<
    Call[]
  >(),
  // ── the agent's workbench: canned replies, private notes, waiting on you ─────────────────
  /** Every canned reply of the workspace, by group then title. Never fails. */
  'canned.list': method(none)<CannedReply[]>(),
  /**
   * Creates a canned reply (no `id`) or replaces one. `stagedIds` are files staged for it (they move
   * into the reply); `keepAttachmentIds` are the reply's own files to keep (others are dropped).
   * Fails with `invalid_input` (empty reply, a file over 1 MB, more than 3 files), `not_found`.
   */
  'canned.save': method(
    z
      .object({
        id: z.number().int().positive().optional(),
        title: cannedTitle,
        body: cannedBody,
        group: cannedGroup.default(''),
        stagedIds: z.array(z.string().uuid()).max(MAX_CANNED_ATTACHMENTS).default([]),
        keepAttachmentIds: z.array(z.number().int().positive()).max(MAX_CANNED_ATTACHMENTS).default([]),
      })
      .strict(),
  )<CannedReply>(),
  /** Deletes a canned reply and its files. Fails with `not_found`. */
  'canned.delete': method(z.object({ id: z.number().int().positive() }).strict())<void>(),
  /**
   * Stages a canned reply's files as attachments of a draft (each a new staged file, like a picked
   * one). Fails with `not_found`, `attachment_rejected`.
   */
  'canned.stageAttachments': method(z.object({ id: z.number().int().positive() }).strict())<
    StagedAttachment[]
  >(),
  /** The whole set as a JSON file's text (attachments included, base64). Never fails. */
  'canned.export': method(none)<{ filename: string; json: string }>(),
  /**
   * Adds (or with `replace`, swaps in) a set from a JSON file's text. A file that is not JSON or not
   * a canned-reply set fails with `invalid_input` naming what is wrong, and changes nothing. A file
   * within `MAX_CANNED_FILE_BYTES` is never longer than that in characters.
   */
  'canned.import': method(
    z
      .object({
        json: z.string().min(1).max(MAX_CANNED_FILE_BYTES),
        replace: z.boolean().default(false),
      })
      .strict(),
  )<{ imported: number; replies: CannedReply[] }>(),
  /** A chat's private notes (oldest first), or a contact's. Exactly one of the two. */
  'notes.list': method(
    z
      .object({ chatId: chatId.optional(), contactId: z.number().int().positive().optional() })
      .strict()
      .refine((on) => (on.chatId === undefined) !== (on.contactId === undefined), {
        message: 'Give a chatId or a contactId',
        path: ['chatId'],
      }),
  )<Note[]>(),
  /**
   * Adds a private note to a chat or a contact: stored locally, never sent. Fails with
   * `invalid_input` (empty, or neither/both of chatId and contactId), `not_found`.
   */
  'notes.add': method(
    z
      .object({
        chatId: chatId.optional(),
        contactId: z.number().int().positive().optional(),
        text: noteText,
      })
      .strict()
      .refine((on) => (on.chatId === undefined) !== (on.contactId === undefined), {
        message: 'Give a chatId or a contactId',
        path: ['chatId'],
      }),
  )<Note>(),
  /** Changes a note's text. Fails with `not_found`, `invalid_input`. */
  'notes.edit': method(z.object({ id: z.number().int().positive(), text: noteText }).strict())<Note>(),
  /** Deletes a note. Fails with `not_found`. */
  'notes.delete': method(z.object({ id: z.number().int().positive() }).strict())<void>(),
  /**
   * What the composer and the details panel need of a chat: its customer's contact (for template
   * variables and contact notes), its line, its notes and the contact's. Fails with `not_found`.
   */
  'workbench.chatContext': method(z.object({ chatId }).strict())<ChatContext>(),
  /** Conversations whose last message is the customer's, oldest wait first (not archived). Never fails. */
  'waiting.list': method(none)<WaitingChat[]>(),
  /** The workbench settings of the active workspace (agent name, overdue threshold). */
  'workbench.settings': method(none)<WorkbenchSettings>(),
  /** Changes workbench settings; returns them as stored. Fails with `invalid_input`. */
  'workbench.updateSettings': method(
    z
      .object({
        agentName: z.string().trim().max(MAX_AGENT_NAME_CHARS).optional(),
        overdueMinutes: z
          .number()
          .int()
          .min(0)
          .max(24 * 60)
          .optional(),
        undoSeconds: z.number().int().min(0).max(MAX_UNDO_SECONDS).optional(),
        quietHours: z.object({ start: clockTime, end: clockTime }).strict().nullable().optional(),
        mutedLineIds: z.array(z.number().int()).max(200).optional(),
      })
      .strict(),
  )<WorkbenchSettings>(),
  // ── send later, undo send, snooze ─────────────────────────────────────────────────────────
  /** A chat's held-back messages (scheduled, or in their undo grace period), soonest first. */
  'scheduled.list': method(z.object({ chatId: chatId.optional() }).strict())<ScheduledSend[]>(),
  /**
   * Sends from the composer: with undo send on, the message is held for the grace period
   * (`held`); otherwise it joins the outbox at once (`key`). Fails with the refusals of
   * `messages.send` (`not_found`, `invalid_input`, `opted_out`, `unsupported`), checked again when
   * a held message goes out.
   */
  'scheduled.send': method(z.object({ chatId, text, stagedIds, attachmentUrls, ...v3SendFields }).strict())<{
    key: string | null;
    held: ScheduledSend | null;
  }>(),
  /**
   * Schedules a message for `at` (the future, within a year). It goes out through the outbox if
   * Parley is running then. Fails with `invalid_input` (in the past) and the refusals of
   * `messages.send` (`not_found`, `invalid_input`, `opted_out`, `unsupported`), checked again when
   * it goes out (refused then, it waits for the agent's confirmation).
   */
  'scheduled.create': method(
    z
      .object({ chatId, text, stagedIds, attachmentUrls, ...v3SendFields, at: z.number().int().positive() })
      .strict(),
  )<ScheduledSend>(),
  /** Edits a held message's text or moves its time. Fails with `not_found` (already sent), `invalid_input`. */
  'scheduled.update': method(
    z
      .object({
        id: z.number().int().positive(),
        text: z.string().max(MAX_MESSAGE_CHARS).optional(),
        at: z.number().int().positive().optional(),
      })
      .strict(),
  )<ScheduledSend>(),
  /**
   * Sends a held message now (also one waiting for confirmation). Fails with `not_found` (already
   * sent or cancelled) and the refusals of `messages.send` (`opted_out` after an opt-out since, …):
   * refused, the message stays held.
   */
  'scheduled.sendNow': method(z.object({ id: z.number().int().positive() }).strict())<{ key: string }>(),
  /**
   * Takes a held message back: it will never be sent. With `toComposer` (undo, edit) all of it —
   * text, files, links, reply, effect, service — becomes the chat's draft; otherwise its files are
   * discarded. Fails with `not_found` (already sent).
   */
  'scheduled.withdraw': method(
    z.object({ id: z.number().int().positive(), toComposer: z.boolean().default(false) }).strict(),
  )<Draft>(),
  /** Snoozed conversations (soonest back first) and those back from a snooze, not yet opened. */
  'snooze.list': method(none)<{ snoozed: SnoozedChat[]; woken: SnoozedChat[] }>(),
  /** Snoozes a conversation until `until` or the customer's reply. Fails with `not_found`, `invalid_input`. */
  'snooze.set': method(z.object({ chatId, until: z.number().int().positive() }).strict())<ChatSnooze>(),
  /** Unsnoozes a conversation, or clears its "back from snooze" mark. Never fails. */
  'snooze.clear': method(z.object({ chatId }).strict())<void>(),
  /**
   * A reply written where the notification is (the quick-reply window, and the Electron host's
   * inline notification reply, which calls this method too): sent through the outbox's door like
   * any message, and the conversation marked read. Fails with the refusals of `messages.send`
   * (`not_found`, `invalid_input`, `opted_out`), in the same words.
   */
  'workbench.quickReply': method(
    z.object({ chatId, text: z.string().trim().max(MAX_MESSAGE_CHARS) }).strict(),
  )<{
    key: string;
  }>(),
  // ── the team inbox (joined workspaces only): team-methods.ts ──────────────────────────────
  ...teamMethods,
} as const;

export type Methods = typeof methods;
export type MethodName = keyof Methods;
export type MethodInput<M extends MethodName> = z.input<Methods[M]['input']>;
export type MethodParsedInput<M extends MethodName> = z.output<Methods[M]['input']>;
export type MethodOutput<M extends MethodName> =
  Methods[M] extends MethodSpec<z.ZodType, infer O> ? O : never;

export const METHOD_NAMES = Object.keys(methods) as MethodName[];
