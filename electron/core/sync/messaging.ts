/**
 * The one port the sync engine and the outbox talk to the service through, whatever its API version:
 * chats, messages, lines, sends and the actions on them, in the store's record shapes. V2 and V3
 * adapters (messaging-v2.ts, messaging-v3.ts) implement it, and a desktop joined to its team's relay
 * the relay's. Contacts are a port of their own (ContactsPort: V2's API whatever the version).
 */
import type { ApiVersion, MessageEffect, MessageReplyTo, ReactionKind } from '../../../shared/domain.ts';
import type { ContactsApi } from '../api/endpoints/contacts.ts';
import type { CallOptions } from '../api/http.ts';
import type { ChatRecord, LineRecord, MessageRecord, ReactionRecord } from '../store/records.ts';

/** A chat as listed, plus what tells whether its messages changed since they were last synced. */
export interface ListedChat extends ChatRecord {
  /** V2: the chat's message_count; V3: its updated_at (ms). Unknown: undefined (always re-read). */
  revision?: number;
  /**
   * Its newest message, where the listing gives one (a team relay's does): a first sync stores it
   * with the chat, so the inbox shows every chat's preview before each chat's page is read.
   */
  preview?: MessageRecord;
}

export interface MessagesPage {
  /**
   * Newest first. V3 maps the service's ids to local ones when this is first read, in a transaction
   * of its own unless one is open: read it inside the transaction that writes the page.
   */
  readonly messages: MessageRecord[];
  /** No older message exists on the service. */
  complete: boolean;
}

export interface OutgoingContent {
  text: string;
  files: ReadonlyArray<{ path: string; filename: string; mimeType: string }>;
  attachmentUrls: readonly string[];
  /** The outbox's key: the same on every attempt, so the service sends once. */
  idempotencyKey?: string;
  /**
   * V3 only (a V2 adapter refuses a send that carries any): the message answered in its thread, the
   * effect, and the service to try first.
   */
  replyTo?: MessageReplyTo;
  effect?: MessageEffect;
  preferredService?: 'iMessage' | 'SMS' | 'RCS';
}

/** A reaction: one of the six, or (V3 only) `custom` with its emoji. */
export type ReactionChoice = { kind: ReactionKind } | { kind: 'custom'; customEmoji: string };

export interface NewChatRequest {
  lineNumber: string;
  recipients: readonly string[];
  displayName: string | null;
  content: OutgoingContent;
}

export interface PolledMessage {
  record: MessageRecord;
  /** No further status change is expected (delivered, read, failed; SMS once sent). */
  settled: boolean;
}

export interface MessagingService {
  readonly version: ApiVersion;
  /** Whether `revision` counts messages (V2): more stored than listed then means deletions. */
  readonly revisionCountsMessages: boolean;
  /** Readies the store for this version before a sync (V3: names V2-era chats by their V3 ids). */
  prepare(options: CallOptions): Promise<void>;
  lines(options: CallOptions): Promise<LineRecord[]>;
  /** The line's chats, newest activity first, a page at a time. */
  chatPages(line: { id: number; phoneNumber: string }, options: CallOptions): AsyncIterable<ListedChat[]>;
  /** One chat; undefined when none of its handles is one of our lines. */
  chat(chatId: number, options: CallOptions): Promise<ListedChat | undefined>;
  newestMessages(chatId: number, count: number, options: CallOptions): Promise<MessagesPage>;
  /**
   * The chat's messages newest first, `pageSize` a page, for as long as the caller reads: a gap check
   * walks back until a page meets what is stored (see catch-up.ts). The last page is `complete`.
   */
  messagePages(chatId: number, pageSize: number, options: CallOptions): AsyncIterable<MessagesPage>;
  /** Up to `count` messages sent before `before` (null: from the newest), newest first. */
  olderMessages(
    chatId: number,
    before: number | null,
    count: number,
    options: CallOptions,
  ): Promise<MessagesPage>;
  message(chatId: number, messageId: number, options: CallOptions): Promise<PolledMessage>;
  /** Accepted by the service: V2 answers with the message, V3 with it `pending` (202). */
  send(chatId: number, content: OutgoingContent, options: CallOptions): Promise<MessageRecord>;
  createChat(
    request: NewChatRequest,
    options: CallOptions,
  ): Promise<{ chat: ChatRecord; message: MessageRecord }>;
  /** The confirmed reaction when the service names it (V2); null when it only acknowledges (V3). */
  react(
    messageId: number,
    reaction: ReactionChoice,
    operation: 'add' | 'remove',
    options: CallOptions,
  ): Promise<ReactionRecord | null>;
  /** The message as it stands after the edit. */
  edit(chatId: number, messageId: number, text: string, options: CallOptions): Promise<MessageRecord>;
  delete(chatId: number, messageId: number, options: CallOptions): Promise<void>;
  markRead(chatId: number, options: CallOptions): Promise<void>;
  typing(chatId: number, typing: boolean, options: CallOptions): Promise<void>;
  /** Shares the organization's contact card in the chat. */
  shareContact(chatId: number, options: CallOptions): Promise<void>;
  /** Sets (null: clears) where the line's calls are forwarded; the line as the service now has it. */
  setForwarding(lineId: number, forwardingNumber: string | null, options: CallOptions): Promise<LineRecord>;
  /** Whether `handle` (E.164 or email) can receive iMessage. */
  checkImessage(handle: string, options: CallOptions): Promise<boolean>;
  /**
   * Saves a received or sent attachment's bytes to `to` (whole or not at all), from the address its
   * message gave, or (V3) a fresh one when that address has expired.
   */
  downloadAttachment(
    attachment: { id: string; url: string },
    to: string,
    options: CallOptions,
  ): Promise<void>;
  /** The chat's V3 id, remembered with the chat; `migrated: false` when the service has none for it. */
  migrationId(chatId: number, options: CallOptions): Promise<{ v3ChatId: string | null; migrated: boolean }>;
}

/** The organization's contacts: V2's API directly, or the relay's answers for a joined desktop. */
export type ContactsPort = Pick<ContactsApi, 'list' | 'create' | 'update' | 'delete'>;
