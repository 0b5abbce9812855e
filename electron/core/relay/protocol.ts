/**
 * What the relay answers a desktop's messaging port, as zod schemas: the port's record shapes
 * (store/records.ts, sync/messaging.ts) plus the V3 ids the records stand for. The relay writes
 * these; the desktop parses every reply with them, as untrusted input: a reply that does not parse
 * is an error (`invalid_response`) and nothing of it is stored.
 *
 *   read reply:    { ok: true, data } | { ok: false, error: {code, message, retryable, field} }
 *   change outcome (KV parley_send_outcomes, <agent>.<key>):
 *                  { state: 'accepted', result } | { state: 'failed', error: {…, kind, status} }
 *                  | { state: 'held', message, latestSeq }   (a send the team's check held)
 */
import { z } from 'zod';

const Id = z.number().int().safe();
const Time = z.number().finite();
const Text = z.string().max(100_000);
const Short = z.string().max(2_000);

const HandleRecordSchema = z.object({
  id: Id,
  identifier: Short,
  service: Short,
  joinedAt: Time.nullable(),
  isMe: z.boolean(),
});

const Health = z.object({ status: Short, docUrl: Short.nullable(), updatedAt: Time.nullable() });

export const LineRecordSchema = z.object({
  id: Id,
  phoneNumber: Short,
  forwardingNumber: Short.nullable(),
  responseRate: z.number().nullable(),
  userName: Short.nullable(),
  userEmail: Short.nullable(),
  v3Id: Short.optional(),
  reputation: z.object({ status: Short, docUrl: Short.nullable() }).nullable().optional(),
});

const ReactionRecordSchema = z.object({
  id: Id,
  messageId: Id,
  kind: Short,
  fromMe: z.boolean(),
  sender: Short,
  at: Time,
  partIndex: z.number().int().min(0).optional(),
  customEmoji: Short.nullable().optional(),
});

export const MessageRecordSchema = z.object({
  id: Id,
  chatId: Id,
  text: Text.optional(),
  sentAt: Time,
  deliveredAt: Time.nullable().optional(),
  deliveryStatus: Short.optional(),
  editedAt: Time.nullable().optional(),
  isRead: z.boolean().optional(),
  fromMe: z.boolean(),
  sender: Short,
  handleId: Id.nullable().optional(),
  attachments: z
    .array(
      z.object({
        id: Short,
        url: Text,
        filename: Short,
        mimeType: Short,
        size: z.number().int().min(0).nullable(),
      }),
    )
    .max(100)
    .optional(),
  reactions: z.array(ReactionRecordSchema).max(1_000).optional(),
  idempotencyKey: Short.nullable().optional(),
  failure: z.object({ code: Short, reason: Short.nullable() }).optional(),
  replyTo: z
    .object({ messageId: Short, partIndex: z.number().int().min(0) })
    .nullable()
    .optional(),
  effect: z.object({ type: Short, name: Short }).nullable().optional(),
  link: Text.nullable().optional(),
});

export const ListedChatSchema = z.object({
  id: Id,
  lineId: Id,
  displayName: Short.optional(),
  service: Short.optional(),
  isGroup: z.boolean().optional(),
  messageCount: z.number().int().min(0).optional(),
  handles: z.array(HandleRecordSchema).max(1_000).optional(),
  v3ChatId: Short.nullable().optional(),
  health: Health.optional(),
  revision: Time.optional(),
  /** Its newest message (sync/messaging.ts ListedChat.preview). */
  preview: MessageRecordSchema.optional(),
});

/** V3: the remote id (UUID; a line's phone number) each local id in a reply stands for. */
export const RemoteIdsSchema = z
  .object({
    chat: z.array(z.tuple([Short, Id])),
    message: z.array(z.tuple([Short, Id])),
    handle: z.array(z.tuple([Short, Id])),
    reaction: z.array(z.tuple([Short, Id])),
    line: z.array(z.tuple([Short, Id])),
  })
  .partial();
export type RemoteIds = z.infer<typeof RemoteIdsSchema>;

const withIds = <T extends z.ZodType>(data: T) => z.object({ data, ids: RemoteIdsSchema.optional() });

const MessagesPageSchema = z.object({
  messages: z.array(MessageRecordSchema).max(500),
  complete: z.boolean(),
});

/** Most chats one `port-newest` read asks for (and the relay answers). */
export const MAX_NEWEST_CHATS = 50;

/** Where the next older page of a chat's messages starts (the relay's timeline cursor). */
const MessageCursorSchema = z.object({ sentAt: Time, key: Short });

/** Contacts as the V2 contact list gives them (what the sync engine's reconciler takes). */
export const RelayContactSchema = z.object({
  id: Id,
  first_name: Short.nullable(),
  last_name: Short.nullable(),
  full_name: Short.nullable(),
  email: Short.nullable(),
  phone_number: Short.nullable(),
  company: Short.nullable(),
  title: Short.nullable(),
  location: Short.nullable(),
  image_url: Text.nullable(),
  created_at: Short.nullable(),
  updated_at: Short.nullable(),
  contact_owner: z
    .object({
      id: Id,
      email: Short.nullable(),
      first_name: Short.nullable(),
      last_name: Short.nullable(),
      name: Short.nullable(),
    })
    .nullable(),
});

/** Each port read: its request (what the relay validates) and its reply data (what the desktop does). */
export const PORT_READS = {
  'port-lines': { reply: withIds(z.array(LineRecordSchema).max(1_000)) },
  'port-chats': {
    reply: withIds(z.object({ chats: z.array(ListedChatSchema).max(500), more: z.boolean() })),
  },
  'port-chat': { reply: withIds(ListedChatSchema.nullable()) },
  'port-messages': {
    reply: withIds(MessagesPageSchema.extend({ next: MessageCursorSchema.nullable() })),
  },
  /** The newest page of many chats at once (newest-pages.ts); chats the relay does not have by id. */
  'port-newest': {
    reply: withIds(
      z.object({
        pages: z.array(MessagesPageSchema.extend({ chatId: Id })).max(MAX_NEWEST_CHATS),
        notFound: z.array(Id).max(MAX_NEWEST_CHATS),
      }),
    ),
  },
  'port-message': { reply: withIds(z.object({ record: MessageRecordSchema, settled: z.boolean() })) },
  'port-contacts': {
    reply: z.object({
      data: z.object({ contacts: z.array(RelayContactSchema).max(500), total: z.number().int().min(0) }),
    }),
  },
  'port-imessage': { reply: z.object({ data: z.object({ available: z.boolean() }) }) },
  'port-migration': {
    reply: z.object({ data: z.object({ v3ChatId: Short.nullable(), migrated: z.boolean() }) }),
  },
  'port-ids': { reply: withIds(z.null()) },
  'port-files': { reply: z.object({ data: z.null() }) },
  'port-download': {
    reply: z.object({ data: z.object({ object: Short, size: z.number().int().min(0) }) }),
  },
} as const;
export type PortRead = keyof typeof PORT_READS;

export const ReadErrorSchema = z.object({
  code: Short,
  message: Short,
  retryable: z.boolean(),
  field: Short.nullable(),
  /** The service's error kind and HTTP status, so the desktop throws what a direct adapter would. */
  kind: Short.optional(),
  status: z.number().int().optional(),
});

export const ReadReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), data: z.unknown(), ids: z.unknown().optional() }),
  z.object({ ok: z.literal(false), error: ReadErrorSchema }),
]);

/** What became of a change (a send, a reaction, an edit…), written by the relay under `<agent>.<key>`. */
export const ChangeOutcomeSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('accepted'), result: z.unknown(), ids: RemoteIdsSchema.optional() }),
  z.object({
    state: z.literal('failed'),
    error: ReadErrorSchema.extend({ retryable: z.literal(false) }),
  }),
  /**
   * A send the team's send-time check held (core/team/send-conflict.ts): not sent. `message` says
   * what the agent had not seen; "Send anyway" sends it with `latestSeq` as what it has now seen.
   */
  z.object({ state: z.literal('held'), message: Short, latestSeq: z.number().int().min(0) }),
]);
export type ChangeOutcome = z.infer<typeof ChangeOutcomeSchema>;
