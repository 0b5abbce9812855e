/**
 * Contacts, lines, live status, settings and the app itself.
 * One part of the bridge's table: shared/contract/methods.ts assembles them.
 */
import { z } from 'zod';
import type { Call, Chat, Contact, SyncStatus } from '../domain.ts';
import type { StorageStatus } from './errors.ts';
import type { AppInfo, LineWithUnread, LiveStatus, PublicSettings } from './views.ts';
import { none, chatId, messageKey, contactFields, method } from './method-fields.ts';

export const appMethods = {
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
} as const;
