/**
 * Every call of the messaging port that changes the service, as one message a desktop publishes on
 * `parley.sends.<agent>.<key>` (the sends stream keeps one message per subject and refuses the
 * rest): a send, a new chat, a reaction, an edit, a deletion, a read mark, typing, the contact card,
 * call forwarding, a contact created, updated or deleted. The relay validates each (these schemas), makes the call once through its own
 * port and writes the outcome under `<agent>.<key>`; the result is validated again on the desktop.
 * A message without `kind` is a send (the protocol's first shape).
 */
import { z } from 'zod';
import { BUBBLE_EFFECTS, PREFERRED_SERVICES, SCREEN_EFFECTS } from '../../../shared/contract/effects.ts';
import { MAX_MESSAGE_CHARS } from '../../../shared/contract/limits.ts';
import { contactFields } from '../../../shared/contract/method-fields.ts';
import { REACTION_KINDS } from '../../../shared/domain.ts';
import { LineRecordSchema, ListedChatSchema, MessageRecordSchema, RelayContactSchema } from './protocol.ts';
import { SUBJECT_TOKEN } from './subjects.ts';

const Id = z.number().int().safe();
const ChatId = Id.refine((id) => id > 0, 'a stored chat id');

/** A file the desktop put into its own bucket (`<key>/<n>`) for this change. */
const FileObjectName = /^[A-Za-z0-9_-]{1,128}\/\d{1,2}$/;

const content = {
  text: z.string().max(MAX_MESSAGE_CHARS),
  attachmentUrls: z
    .array(z.url({ protocol: /^https$/ }))
    .max(10)
    .default([]),
  files: z
    .array(
      z
        .object({
          object: z.string().regex(FileObjectName),
          filename: z.string().min(1).max(255),
          mimeType: z.string().min(1).max(255),
        })
        .strict(),
    )
    .max(10)
    .default([]),
  replyTo: z
    .object({ messageId: z.string().min(1).max(200), partIndex: z.number().int().min(0).max(99) })
    .strict()
    .optional(),
  effect: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('screen'), name: z.enum(SCREEN_EFFECTS) }).strict(),
      z.object({ type: z.literal('bubble'), name: z.enum(BUBBLE_EFFECTS) }).strict(),
    ])
    .optional(),
  preferredService: z.enum(PREFERRED_SERVICES).optional(),
};

const hasContent = (c: { text: string; attachmentUrls: unknown[]; files: unknown[] }) =>
  c.text.trim() !== '' || c.attachmentUrls.length > 0 || c.files.length > 0;
const needsContent = { message: 'A send needs text or an attachment', path: ['text'] };

const Reaction = z.union([
  z.object({ kind: z.enum(REACTION_KINDS) }).strict(),
  z.object({ kind: z.literal('custom'), customEmoji: z.string().min(1).max(32) }).strict(),
]);

/** A contact's fields as the contacts API takes them (the bridge's own): on update only those given change. */
const ContactFields = contactFields;

const Change = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('send'),
      chatId: ChatId,
      ...content,
      /**
       * The team's send-time check: the newest activity of the chat (its sequence in the team
       * stream) the agent had seen when it sent; without it, no check.
       */
      seenSeq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
      /**
       * "Send anyway": the key of this agent's held send this one replaces. The service gets that
       * key (it never had it: the send was held before it went), so two answers still send once.
       */
      resendOf: z.string().regex(SUBJECT_TOKEN).optional(),
    })
    .strict()
    .refine(hasContent, needsContent),
  z
    .object({
      kind: z.literal('createChat'),
      lineNumber: z.string().min(1).max(40),
      recipients: z.array(z.string().min(1).max(320)).min(1).max(50),
      displayName: z.string().max(200).nullable(),
      ...content,
    })
    .strict()
    .refine(hasContent, needsContent),
  z
    .object({
      kind: z.literal('react'),
      messageId: Id,
      reaction: Reaction,
      operation: z.enum(['add', 'remove']),
    })
    .strict(),
  z
    .object({
      kind: z.literal('edit'),
      chatId: ChatId,
      messageId: Id,
      text: z.string().min(1).max(MAX_MESSAGE_CHARS),
    })
    .strict(),
  z.object({ kind: z.literal('delete'), chatId: ChatId, messageId: Id }).strict(),
  z.object({ kind: z.literal('markRead'), chatId: ChatId }).strict(),
  z.object({ kind: z.literal('typing'), chatId: ChatId, typing: z.boolean() }).strict(),
  z.object({ kind: z.literal('shareContact'), chatId: ChatId }).strict(),
  z
    .object({
      kind: z.literal('setForwarding'),
      lineId: Id,
      forwardingNumber: z.string().min(1).max(40).nullable(),
    })
    .strict(),
  z.object({ kind: z.literal('createContact'), contact: ContactFields }).strict(),
  z.object({ kind: z.literal('updateContact'), contactId: ChatId, contact: ContactFields }).strict(),
  z.object({ kind: z.literal('deleteContact'), contactId: ChatId }).strict(),
]);

/** What a desktop publishes; the relay parses it as untrusted input. */
export const ChangeRequestSchema = z.preprocess(
  (value) =>
    value && typeof value === 'object' && !Array.isArray(value) && !('kind' in value)
      ? { kind: 'send', ...value }
      : value,
  Change,
);
export type ChangeRequest = z.input<typeof Change>;
export type ParsedChange = z.output<typeof Change>;
export type ChangeKind = ParsedChange['kind'];

const ReactionRecordSchema = z.object({
  id: Id,
  messageId: Id,
  kind: z.string().max(100),
  fromMe: z.boolean(),
  sender: z.string().max(2_000),
  at: z.number(),
  partIndex: z.number().int().min(0).optional(),
  customEmoji: z.string().max(100).nullable().optional(),
});

/** What each change's accepted outcome carries, as the port returns it. */
export const CHANGE_RESULTS = {
  send: MessageRecordSchema,
  createChat: z.object({ chat: ListedChatSchema, message: MessageRecordSchema }),
  react: ReactionRecordSchema.nullable(),
  edit: MessageRecordSchema,
  delete: z.null(),
  markRead: z.null(),
  typing: z.null(),
  shareContact: z.null(),
  setForwarding: LineRecordSchema,
  createContact: RelayContactSchema,
  updateContact: RelayContactSchema,
  deleteContact: z.null(),
} satisfies Record<ChangeKind, z.ZodType>;
