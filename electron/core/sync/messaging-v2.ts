/** The messaging port over the V2 client: the service's V2 shapes mapped to store records. */
import { pages } from '../api/pagination.ts';
import type { PartnerApiClient } from '../api/client.ts';
import { isPartnerApiError, PartnerApiError } from '../api/errors.ts';
import type { CallOptions } from '../api/http.ts';
import type { ApiChat } from '../api/schemas.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { MessageRecord } from '../store/records.ts';
import { chatRecord, lineRecord, messageRecord, reactionRecord } from '../api/domain-map.ts';
import type {
  ListedChat,
  MessagesPage,
  MessagingService,
  NewChatRequest,
  OutgoingContent,
  PolledMessage,
  ReactionChoice,
} from './messaging.ts';

const UNSETTLED = new Set(['pending', 'paused']);

export class V2Messaging implements MessagingService {
  readonly version = 'v2' as const;
  readonly revisionCountsMessages = true;
  readonly #client: PartnerApiClient;
  readonly #store: LocalStore;

  constructor(client: PartnerApiClient, store: LocalStore) {
    this.#client = client;
    this.#store = store;
  }

  async prepare(): Promise<void> {}

  async lines(options: CallOptions) {
    return (await this.#client.lines.list(options)).map(lineRecord);
  }

  async *chatPages(line: { id: number; phoneNumber: string }, options: CallOptions) {
    for await (const page of pages((r) => this.#client.chats.list(line.phoneNumber, r, options), {
      perPage: 100,
      signal: options.signal,
    })) {
      yield page.items.map((c) => this.#listed(c, line));
    }
  }

  async chat(chatId: number, options: CallOptions): Promise<ListedChat | undefined> {
    const chat = await this.#client.chats.get(chatId, options);
    const line = this.#lineOf(chat.chat_handles.map((h) => h.phone_number));
    return line && this.#listed(chat, line);
  }

  async newestMessages(chatId: number, count: number, options: CallOptions): Promise<MessagesPage> {
    const page = await this.#client.messages.list(chatId, { sort: 'desc', perPage: count }, options);
    return { messages: this.#records(chatId, page.items), complete: page.totalPages <= 1 };
  }

  async *messagePages(chatId: number, pageSize: number, options: CallOptions) {
    for await (const page of pages(
      (r) => this.#client.messages.list(chatId, { ...r, sort: 'desc' }, options),
      { perPage: pageSize, signal: options.signal },
    )) {
      yield { messages: this.#records(chatId, page.items), complete: page.page >= page.totalPages };
    }
  }

  async olderMessages(chatId: number, before: number | null, count: number, options: CallOptions) {
    const page = await this.#client.messages.list(
      chatId,
      { sort: 'desc', perPage: count, ...(before === null ? {} : { before: new Date(before) }) },
      options,
    );
    return {
      messages: this.#records(chatId, page.items),
      complete: page.items.length < count || page.totalPages <= 1,
    };
  }

  async message(chatId: number, messageId: number, options: CallOptions): Promise<PolledMessage> {
    const fresh = await this.#client.messages.get(chatId, messageId, options);
    return {
      record: messageRecord(fresh, chatId, this.#own()),
      settled: !UNSETTLED.has(fresh.delivery_status),
    };
  }

  async send(chatId: number, content: OutgoingContent, options: CallOptions): Promise<MessageRecord> {
    refuseV3Options(content);
    const { message } = await this.#client.messages.send(
      chatId,
      {
        text: content.text,
        ...(content.idempotencyKey ? { idempotencyKey: content.idempotencyKey } : {}),
        files: [...content.files],
        attachmentUrls: [...content.attachmentUrls],
      },
      options,
    );
    return messageRecord(message, chatId, this.#own(), { idempotencyKey: content.idempotencyKey });
  }

  async createChat(request: NewChatRequest, options: CallOptions) {
    const { content } = request;
    refuseV3Options(content);
    const created = await this.#client.chats.create(
      {
        line: request.lineNumber,
        participants: request.recipients,
        ...(request.displayName ? { displayName: request.displayName } : {}),
        text: content.text,
        ...(content.idempotencyKey ? { idempotencyKey: content.idempotencyKey } : {}),
        files: [...content.files],
        attachmentUrls: [...content.attachmentUrls],
      },
      options,
    );
    const line = this.#lineOf(created.chat.chat_handles.map((h) => h.phone_number)) ?? {
      id: this.#store.lines.byNumber(request.lineNumber)?.id ?? 0,
      phoneNumber: request.lineNumber,
    };
    return {
      chat: chatRecord(created.chat, line.id, line.phoneNumber),
      // The create chat response carries no reactions: absent, not empty.
      message: messageRecord(created.message, created.chat.id, this.#own(), {
        idempotencyKey: content.idempotencyKey,
        hasReactions: false,
      }),
    };
  }

  async react(
    messageId: number,
    reaction: ReactionChoice,
    operation: 'add' | 'remove',
    options: CallOptions,
  ) {
    const { kind } = reaction;
    if (kind === 'custom') throw v3Only('Custom reactions');
    if (operation === 'add')
      return reactionRecord(await this.#client.reactions.add(messageId, kind, options));
    await this.#client.reactions.remove(messageId, kind, options).catch(ignoreNotFound);
    return null;
  }

  async edit(chatId: number, messageId: number, text: string, options: CallOptions) {
    await this.#client.messages.edit(chatId, messageId, text, options);
    // API-GAPS: re-fetch after an edit (the response has only id and text).
    return (await this.message(chatId, messageId, options)).record;
  }

  async delete(chatId: number, messageId: number, options: CallOptions) {
    await this.#client.messages.delete(chatId, messageId, options).catch(ignoreNotFound);
  }

  async markRead(chatId: number, options: CallOptions) {
    await this.#client.chats.markAsRead(chatId, options);
  }

  async typing(chatId: number, typing: boolean, options: CallOptions) {
    if (typing) await this.#client.chats.startTyping(chatId, options);
    else await this.#client.chats.stopTyping(chatId, options);
  }

  async shareContact(chatId: number, options: CallOptions) {
    await this.#client.chats.shareContact(chatId, options);
  }

  async setForwarding(lineId: number, forwardingNumber: string | null, options: CallOptions) {
    return lineRecord(await this.#client.lines.updateForwarding(lineId, forwardingNumber, options));
  }

  async checkImessage(handle: string, options: CallOptions) {
    return (await this.#client.checkIMessageAvailability(handle, options)).available;
  }

  async downloadAttachment(attachment: { id: string; url: string }, to: string, options: CallOptions) {
    await this.#client.files.download(attachment.url, to, options);
  }

  async migrationId(chatId: number, options: CallOptions) {
    const result = await this.#client.chats.migrateToV3(chatId, options);
    return { v3ChatId: result.v3_chat_id, migrated: result.migrated };
  }

  #listed(chat: ApiChat, line: { id: number; phoneNumber: string }): ListedChat {
    return {
      ...chatRecord(chat, line.id, line.phoneNumber),
      ...(chat.message_count === null ? {} : { revision: chat.message_count }),
    };
  }

  #records(chatId: number, messages: Parameters<typeof messageRecord>[0][]): MessageRecord[] {
    const own = this.#own();
    return messages.map((m) => messageRecord(m, chatId, own));
  }

  #own(): Set<string> {
    return new Set(this.#store.lines.list().map((l) => l.phoneNumber));
  }

  #lineOf(identifiers: readonly string[]): { id: number; phoneNumber: string } | undefined {
    for (const identifier of identifiers) {
      const line = this.#store.lines.byNumber(identifier);
      if (line) return line;
    }
    return undefined;
  }
}

/** V2 has no replies, effects or service choice: a send that asks for them is refused, not sent plain. */
function refuseV3Options(content: OutgoingContent): void {
  if (content.replyTo || content.effect || content.preferredService)
    throw v3Only('Replies, effects and a chosen service');
}

function v3Only(what: string): PartnerApiError {
  return new PartnerApiError({
    kind: 'validation',
    code: 'unsupported',
    retryable: false,
    message: `${what} need a V3 workspace`,
  });
}

function ignoreNotFound(error: unknown): void {
  if (isPartnerApiError(error) && error.status === 404) return;
  throw error;
}
