/**
 * Messages and attachments: a timeline's pages, sending, editing, reactions, files.
 * One part of the bridge's table: shared/contract/methods.ts assembles them.
 */
import { z } from 'zod';
import type { Message } from '../domain.ts';
import { REACTION_KINDS } from '../domain.ts';
import { PREFERRED_SERVICES } from './effects.ts';
import { MAX_MESSAGE_CHARS } from './limits.ts';
import { EMPTY_MESSAGE, isSendable } from '../message-rules.ts';
import type { MessagePage } from './views.ts';
import {
  chatId,
  messageKey,
  stagedIds,
  attachmentUrls,
  text,
  replyTo,
  effect,
  customEmoji,
  method,
} from './method-fields.ts';

export const messageMethods = {
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
} as const;
