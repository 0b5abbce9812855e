/**
 * The reads a desktop's relay messaging port makes (`parley.read.port.*`), in the port's record
 * shapes, answered from the relay's store. What the store does not hold yet is fetched by the
 * relay's own sync engine first (a chat it has not seen, older history than it keeps), so a
 * desktop's page is the service's page, once, for every desktop of the team.
 *
 * Pure service reads with no store behind them (the iMessage check, an attachment's bytes, a chat's
 * V3 id) go to the service through the relay's own port, under its one token and rate limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Message } from '../../shared/domain.ts';
import {
  MAX_NEWEST_CHATS,
  type LocalStore,
  type MessageRecord,
  type WorkspaceSession,
} from '../core/relay-host.ts';
import { approximateBytes, type CachedPage, type NewestPageCache } from './page-cache.ts';
import { chatRecords, lineRecords, messageRecords, remoteIdsOf } from './port-records.ts';

/** What a read runs against: the relay's session, and the agent who asked (from its reply inbox). */
export interface ReadContext {
  session: Pick<WorkspaceSession, 'store' | 'sync' | 'messaging'>;
  agentId: string | undefined;
  /** The agents' own buckets of the object store (core/relay/files.ts). */
  /** Chats' newest pages, built once for every desktop that asks (page-cache.ts). */
  pages?: NewestPageCache;
  files?: {
    ensure(agentId: string): Promise<void>;
    put(agentId: string, name: string, path: string): Promise<{ object: string; size: number }>;
  };
}

/** A read's failure the desktop should see as the service's (not found, validation). */
export class ReadFailure extends Error {
  readonly code: string;
  readonly kind: string;
  readonly status: number;

  constructor(code: string, message: string, kind: string, status: number) {
    super(message);
    this.code = code;
    this.kind = kind;
    this.status = status;
  }
}

const MAX_PAGE = 200;
const Limit = z.number().int().min(1).max(MAX_PAGE);
const ChatId = z.number().int().positive();
const Cursor = z.object({ sentAt: z.number().int(), key: z.string().max(200) }).strict();
/**
 * What one `port-newest` reply may carry, roughly: a quarter of nats-server's default 1 MiB payload
 * limit, whatever the messages' texts (a reply over the limit would never reach the desktop).
 */
const NEWEST_REPLY_BUDGET_BYTES = 256 * 1024;
/** How many times a page asks the relay's engine for older history before answering what it has. */
const MAX_FILLS = 10;

export const PORT_READ_HANDLERS = {
  'port-lines': {
    input: z.object({}).strict(),
    run: ({ session: { store } }: ReadContext) => {
      const data = lineRecords(store, store.lines.list());
      return { data, ids: remoteIdsOf(store, { lines: data }) };
    },
  },
  'port-chats': {
    input: z.object({ lineId: z.number().int(), offset: z.number().int().min(0), limit: Limit }).strict(),
    run: ({ session: { store } }: ReadContext, input: { lineId: number; offset: number; limit: number }) => {
      const listed = store.chats.list(input);
      // Each chat's newest message as its preview: a first sync shows the inbox from this page.
      const newest = listed.flatMap((chat) =>
        chat.lastMessage ? store.messages.page(chat.id, { limit: 1 }) : [],
      );
      const previews = new Map(messageRecords(store, newest).map((m) => [m.chatId, m]));
      const chats = chatRecords(store, listed).map((chat) => {
        const preview = previews.get(chat.id);
        return preview ? { ...chat, preview } : chat;
      });
      return {
        data: { chats, more: chats.length === input.limit },
        ids: remoteIdsOf(store, { chats, lines: store.lines.list(), messages: [...previews.values()] }),
      };
    },
  },
  'port-chat': {
    input: z.object({ chatId: ChatId }).strict(),
    run: async ({ session }: ReadContext, input: { chatId: number }) => {
      const { store } = session;
      if (!store.chats.exists(input.chatId)) await session.sync.refreshChat(input.chatId);
      const chat = store.chats.get(input.chatId);
      const chats = chat && chat.lineId !== 0 ? chatRecords(store, [chat]) : [];
      return { data: chats[0] ?? null, ids: remoteIdsOf(store, { chats }) };
    },
  },
  'port-messages': {
    input: z.object({ chatId: ChatId, limit: Limit, before: Cursor.optional() }).strict(),
    run: async (
      { session }: ReadContext,
      input: { chatId: number; limit: number; before?: { sentAt: number; key: string } | undefined },
    ) => {
      const page = await storedPage(session, input);
      const messages = messageRecords(session.store, page.messages);
      const oldest = page.messages.at(-1);
      return {
        data: {
          messages,
          complete: page.complete,
          next: page.complete || !oldest ? null : { sentAt: oldest.sentAt, key: oldest.key },
        },
        ids: remoteIdsOf(session.store, { messages }),
      };
    },
  },
  'port-newest': {
    input: z.object({ chatIds: z.array(ChatId).min(1).max(MAX_NEWEST_CHATS), limit: Limit }).strict(),
    run: async ({ session, pages: kept }: ReadContext, input: { chatIds: number[]; limit: number }) => {
      const pages: Array<{ chatId: number; messages: MessageRecord[]; complete: boolean }> = [];
      const notFound: number[] = [];
      let bytes = 0;
      // Chats past the reply's budget are left out: the desktop asks for them again.
      for (const chatId of new Set(input.chatIds)) {
        if (bytes >= NEWEST_REPLY_BUDGET_BYTES) break;
        if (!session.store.chats.exists(chatId)) {
          notFound.push(chatId);
          continue;
        }
        const build = async (): Promise<CachedPage> => {
          const page = await storedPage(session, { chatId, limit: input.limit });
          return { messages: messageRecords(session.store, page.messages), complete: page.complete };
        };
        const { messages, complete } = kept ? await kept.newest(chatId, input.limit, build) : await build();
        bytes += approximateBytes(messages);
        pages.push({ chatId, messages, complete });
      }
      const messages = pages.flatMap((page) => page.messages);
      return { data: { pages, notFound }, ids: remoteIdsOf(session.store, { messages }) };
    },
  },
  'port-message': {
    input: z.object({ chatId: ChatId, messageId: z.number().int() }).strict(),
    run: ({ session: { store } }: ReadContext, input: { chatId: number; messageId: number }) => {
      const message = store.messages.byId(input.messageId);
      if (!message || message.chatId !== input.chatId)
        throw new ReadFailure('not_found', 'The relay has no such message', 'not_found', 404);
      const [record] = messageRecords(store, [message]) as [MessageRecord];
      return {
        data: { record, settled: settled(store, message) },
        ids: remoteIdsOf(store, { messages: [record] }),
      };
    },
  },
  'port-contacts': {
    input: z.object({ offset: z.number().int().min(0), limit: Limit }).strict(),
    run: ({ session: { store } }: ReadContext, input: { offset: number; limit: number }) => ({
      data: {
        contacts: store.contacts.list({ offset: input.offset, limit: input.limit }).map((c) => ({
          id: c.id,
          first_name: c.firstName || null,
          last_name: c.lastName || null,
          full_name: c.fullName || null,
          email: c.email || null,
          phone_number: c.phoneNumber || null,
          company: c.company || null,
          title: c.title || null,
          location: c.location || null,
          image_url: c.imageUrl,
          created_at: c.createdAt === null ? null : new Date(c.createdAt).toISOString(),
          updated_at: c.updatedAt === null ? null : new Date(c.updatedAt).toISOString(),
          contact_owner: c.owner
            ? {
                id: c.owner.id,
                email: c.owner.email || null,
                first_name: null,
                last_name: null,
                name: c.owner.name || null,
              }
            : null,
        })),
        total: store.contacts.count(),
      },
    }),
  },
  'port-imessage': {
    input: z.object({ handle: z.string().min(1).max(320) }).strict(),
    run: async ({ session }: ReadContext, input: { handle: string }) => ({
      data: { available: await session.messaging.checkImessage(input.handle, { priority: 'user' }) },
    }),
  },
  'port-migration': {
    input: z.object({ chatId: ChatId }).strict(),
    run: async ({ session }: ReadContext, input: { chatId: number }) => {
      const result = await session.messaging.migrationId(input.chatId, { priority: 'user' });
      if (result.v3ChatId) session.sync.reconciler.applyV3ChatId(input.chatId, result.v3ChatId);
      return { data: result };
    },
  },
  'port-ids': {
    input: z.object({ chatIds: z.array(z.number().int()).max(10_000) }).strict(),
    run: ({ session: { store } }: ReadContext, input: { chatIds: number[] }) => ({
      data: null,
      ids: remoteIdsOf(store, { chats: input.chatIds.map((id) => ({ id, lineId: 0 })) }),
    }),
  },
  'port-files': {
    input: z.object({}).strict(),
    run: async ({ agentId, files }: ReadContext) => {
      if (!agentId || !files)
        throw new ReadFailure('invalid_request', 'Files need an agent inbox', 'validation', 400);
      await files.ensure(agentId);
      return { data: null };
    },
  },
  'port-download': {
    // The desktop names the attachment; the address fetched is the one the relay's store holds for
    // it (a desktop-chosen URL would have the relay fetch anything on the service's origin with its
    // token, into the agent's bucket).
    input: z
      .object({
        id: z.string().min(1).max(200),
        key: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
      })
      .strict(),
    run: async (context: ReadContext, input: { id: string; key: string }) => {
      const { agentId, files } = context;
      if (!agentId || !files)
        throw new ReadFailure('invalid_request', 'Downloads need an agent inbox', 'validation', 400);
      const attachment = context.session.store.messages.attachment(input.id);
      if (!attachment)
        throw new ReadFailure('not_found', 'The team has no such attachment', 'not_found', 404);
      const dir = mkdtempSync(join(tmpdir(), 'parley-relay-download-'));
      try {
        const path = join(dir, 'file');
        await context.session.messaging.downloadAttachment(attachment, path, { priority: 'user' });
        return { data: await files.put(agentId, `download/${input.key}`, path) };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
} as const;

/**
 * `limit` stored messages before `before` (newest first), older history fetched into the relay's
 * store first when it holds fewer and the chat's history is not complete there.
 */
async function storedPage(
  session: ReadContext['session'],
  input: { chatId: number; limit: number; before?: { sentAt: number; key: string } | undefined },
): Promise<{ messages: Message[]; complete: boolean }> {
  const { store } = session;
  if (!store.chats.exists(input.chatId))
    throw new ReadFailure('not_found', 'The relay has no such chat', 'not_found', 404);
  for (let fill = 0; ; fill++) {
    const page = store.messages
      .page(input.chatId, { limit: input.limit + 1, ...(input.before ? { before: input.before } : {}) })
      .reverse();
    const historyComplete = store.chats.syncState(input.chatId)?.historyComplete ?? false;
    if (page.length > input.limit || historyComplete || fill === MAX_FILLS)
      return {
        messages: page.slice(0, input.limit),
        complete: page.length <= input.limit && historyComplete,
      };
    const { added, complete } = await session.sync.loadOlder(input.chatId, input.limit + 1 - page.length);
    if (added === 0 && !complete) return { messages: page, complete: false };
  }
}

/** No further status change is expected (as the direct adapters say it). */
function settled(store: LocalStore, message: Message): boolean {
  if (store.apiVersion === 'v2') return message.state !== 'pending' && message.state !== 'paused';
  return (
    message.state !== 'pending' &&
    message.state !== 'queued' &&
    (message.state !== 'sent' || message.service === 'SMS')
  );
}

export type PortReadName = keyof typeof PORT_READ_HANDLERS;

/** Reads leave nothing behind but the file put for the agent (see `putFile`). */
export function isPortRead(what: string): what is PortReadName {
  return Object.hasOwn(PORT_READ_HANDLERS, what);
}
