/**
 * Chats: the inbox, one conversation, its flags, its draft, search.
 * One part of the bridge's table: shared/contract/methods.ts assembles them.
 */
import { z } from 'zod';
import type { Chat } from '../domain.ts';
import { MAX_GROUP_NAME_CHARS } from './limits.ts';
import type { ChatDetails, Draft, SearchResults } from './views.ts';
import { chatId, stagedIds, attachmentUrls, text, v3SendFields, method } from './method-fields.ts';

export const chatMethods = {
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
} as const;
