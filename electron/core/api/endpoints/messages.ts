import {
  editedMessageResponse,
  messageListResponse,
  messageResponse,
  reactionResponse,
  removedReactionResponse,
} from '../envelopes.ts';
import type { CallOptions } from '../http.ts';
import {
  checkIdempotencyKey,
  messageForm,
  messageJson,
  type OutgoingMessage,
  prepareFiles,
} from '../outgoing.ts';
import {
  listPages,
  type Page,
  type PageRequest,
  pageFromMeta,
  pageQuery,
  type PagesOptions,
} from '../pagination.ts';
import type { ApiMessage, ApiReaction, KnownReactionType } from '../schemas.ts';
import { type EndpointContext, idSegment, isoTime } from './context.ts';

export interface MessageFilter {
  /** Only messages sent strictly before / after this time. */
  before?: Date | string;
  after?: Date | string;
  /** Chronological order; default 'asc'. */
  sort?: 'asc' | 'desc';
}

export interface SentMessage {
  message: ApiMessage;
  /** true when the idempotency key had been used: the stored message came back and nothing was sent. */
  replayed: boolean;
}

/** Messages of a chat: `/chats/{id}/chat_messages`. */
export class MessagesApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  async list(
    chatId: number,
    request: PageRequest & MessageFilter = {},
    options: CallOptions = {},
  ): Promise<Page<ApiMessage>> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: `/chats/${idSegment(chatId, 'Chat')}/chat_messages`,
      query: {
        ...pageQuery(request),
        before: isoTime(request.before),
        after: isoTime(request.after),
        sort: request.sort,
      },
      schema: messageListResponse,
    });
    return pageFromMeta(data.data, data.meta);
  }

  /** Every page of the chat's messages matching `filter`. */
  pages(
    chatId: number,
    request: PagesOptions & MessageFilter = {},
    options: CallOptions = {},
  ): AsyncGenerator<Page<ApiMessage>> {
    return listPages((page, o) => this.list(chatId, { ...request, ...page }, o), request, options);
  }

  async get(chatId: number, messageId: number, options: CallOptions = {}): Promise<ApiMessage> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: this.#messagePath(chatId, messageId),
      schema: messageResponse,
    });
    return data;
  }

  /**
   * Sends a message. Files go as multipart, streamed from disk; otherwise the body is JSON. With an
   * idempotency key the send is retried on transient failures, and can never arrive twice.
   */
  async send(chatId: number, message: OutgoingMessage, options: CallOptions = {}): Promise<SentMessage> {
    checkIdempotencyKey(message.idempotencyKey);
    const path = `/chats/${idSegment(chatId, 'Chat')}/chat_messages`;
    const files = await prepareFiles(message.files ?? [], this.#ctx.maxAttachmentBytes);
    const { status, data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path,
      idempotencyKey: message.idempotencyKey,
      ...(files.length > 0
        ? { form: () => messageForm(message, files) }
        : { json: { message: messageJson(message) } }),
      schema: messageResponse,
    });
    return { message: data, replayed: status === 200 };
  }

  /** Replaces the text of one of the organization's own messages (not SMS). Re-fetch for `edited_at`. */
  async edit(
    chatId: number,
    messageId: number,
    text: string,
    options: CallOptions = {},
  ): Promise<{ id: number; text: string }> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: `${this.#messagePath(chatId, messageId)}/edit`,
      json: { text },
      schema: editedMessageResponse,
    });
    return data;
  }

  /** Deletes one of the organization's own messages. */
  async delete(chatId: number, messageId: number, options: CallOptions = {}): Promise<void> {
    await this.#ctx.http.request({
      ...options,
      method: 'DELETE',
      path: this.#messagePath(chatId, messageId),
    });
  }

  #messagePath(chatId: number, messageId: number): string {
    return `/chats/${idSegment(chatId, 'Chat')}/chat_messages/${idSegment(messageId, 'Message')}`;
  }
}

/** Reactions on a message: `/chat_messages/{id}/reactions`. */
export class ReactionsApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  /** Adds a reaction; adding the same one again returns the existing reaction. */
  async add(messageId: number, type: KnownReactionType, options: CallOptions = {}): Promise<ApiReaction> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: this.#path(messageId),
      json: { type, operation: 'add' },
      schema: reactionResponse,
    });
    return data;
  }

  /** Removes a reaction; resolves with the removed reaction when the service returns it, else null. */
  async remove(
    messageId: number,
    type: KnownReactionType,
    options: CallOptions = {},
  ): Promise<ApiReaction | null> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: this.#path(messageId),
      json: { type, operation: 'remove' },
      schema: removedReactionResponse,
    });
    return data;
  }

  #path(messageId: number): string {
    return `/chat_messages/${idSegment(messageId, 'Message')}/reactions`;
  }
}
