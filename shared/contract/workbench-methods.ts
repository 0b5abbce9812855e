/**
 * The agent's workbench: canned replies, notes, waiting on you; send later, undo send, snooze;
 * the quick reply.
 * One part of the bridge's table: shared/contract/methods.ts assembles them.
 */
import { z } from 'zod';
import type { StagedAttachment } from './staged.ts';
import { cannedBody, cannedGroup, cannedTitle } from '../canned-file.ts';
import { MAX_CANNED_ATTACHMENTS } from '../workbench.ts';
import { MAX_AGENT_NAME_CHARS, MAX_CANNED_FILE_BYTES, MAX_MESSAGE_CHARS } from './limits.ts';
import { MAX_UNDO_SECONDS } from '../schedule.ts';
import type {
  CannedReply,
  ChatContext,
  Draft,
  Note,
  WaitingChat,
  WorkbenchSettings,
  ScheduledSend,
  SnoozedChat,
  ChatSnooze,
} from './views.ts';
import {
  none,
  chatId,
  stagedIds,
  attachmentUrls,
  text,
  noteText,
  clockTime,
  v3SendFields,
  method,
} from './method-fields.ts';

export const workbenchMethods = {
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
  /** A chat's waiting messages (scheduled, or in their undo grace period), soonest first. */
  'scheduled.list': method(z.object({ chatId: chatId.optional() }).strict())<ScheduledSend[]>(),
  /**
   * Sends from the composer: with undo send on, the message waits for the grace period
   * (`waiting`); otherwise it joins the outbox at once (`key`). Fails with the refusals of
   * `messages.send` (`not_found`, `invalid_input`, `opted_out`, `unsupported`), checked again when
   * a waiting message goes out.
   */
  'scheduled.send': method(z.object({ chatId, text, stagedIds, attachmentUrls, ...v3SendFields }).strict())<{
    key: string | null;
    waiting: ScheduledSend | null;
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
  /** Edits a waiting message's text or moves its time. Fails with `not_found` (already sent), `invalid_input`. */
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
   * Sends a waiting message now (also one waiting for confirmation). Fails with `not_found` (already
   * sent or cancelled) and the refusals of `messages.send` (`opted_out` after an opt-out since, …):
   * refused, the message stays waiting.
   */
  'scheduled.sendNow': method(z.object({ id: z.number().int().positive() }).strict())<{ key: string }>(),
  /**
   * Takes a waiting message back: it will never be sent. With `toComposer` (undo, edit) all of it —
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
} as const;
