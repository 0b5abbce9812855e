import type { CallOptions } from '../../http.ts';
import type { EndpointContext } from '../../endpoints/context.ts';
import { PartnerApiError } from '../../errors.ts';
import { type V3OutgoingMessage, v3MessageBody } from '../outgoing.ts';
import { clampLimit, type CursorPage, cursorItems, cursorPages } from '../pagination.ts';
import {
  type V3Accepted,
  type V3KnownReactionType,
  type V3Message,
  type V3SentMessage,
  v3AcceptedSchema,
  v3MessageListSchema,
  v3MessageSchema,
  v3SentMessageSchema,
} from '../schemas.ts';
import { traceIdOf, v3Segment } from './segment.ts';

export interface V3ThreadRequest {
  limit?: number;
  order?: 'asc' | 'desc';
}

export interface V3ReactionInput {
  /** `custom` needs `customEmoji`; `sticker` exists only on inbound reactions. */
  type: Exclude<V3KnownReactionType, 'sticker'>;
  customEmoji?: string;
  partIndex?: number;
}

/** Messages: list and send under `/chats/{id}/messages`; get, edit, delete, thread, react under `/messages`. */
export class V3MessagesApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  /** One page of the chat's messages, newest first (default 50 a page). */
  async list(
    chatId: string,
    request: { limit?: number; cursor?: string | null } = {},
    options: CallOptions = {},
  ): Promise<CursorPage<V3Message>> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: `/chats/${v3Segment(chatId, 'Chat')}/messages`,
      query: { limit: clampLimit(request.limit, 50), cursor: request.cursor ?? undefined },
      schema: v3MessageListSchema,
    });
    return { items: data.messages, nextCursor: data.next_cursor };
  }

  pages(
    chatId: string,
    request: { limit?: number; cursor?: string | null } = {},
    options: CallOptions = {},
  ): AsyncGenerator<CursorPage<V3Message>> {
    return cursorPages((cursor) => this.list(chatId, { ...request, cursor }, options), {
      cursor: request.cursor,
      signal: options.signal,
    });
  }

  all(
    chatId: string,
    request: { limit?: number } = {},
    options: CallOptions = {},
  ): AsyncGenerator<V3Message> {
    return cursorItems((cursor) => this.list(chatId, { ...request, cursor }, options), {
      signal: options.signal,
    });
  }

  /**
   * Sends a message: 202 with the message `pending` and `service: null`; the outcome arrives as events
   * (message.sent, then message.delivered or message.failed). With an idempotency key the send is
   * retried on transient failures with the same key, so it is sent once.
   */
  async send(
    chatId: string,
    message: V3OutgoingMessage,
    options: CallOptions = {},
  ): Promise<V3SentMessage & { traceId: string | null }> {
    const { data, headers } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: `/chats/${v3Segment(chatId, 'Chat')}/messages`,
      idempotencyKey: message.idempotencyKey,
      json: { message: v3MessageBody(message, this.#ctx.defaultCountry) },
      schema: v3SentMessageSchema,
    });
    // The events this send causes carry the same trace id.
    return { ...data, traceId: traceIdOf(headers) };
  }

  async get(messageId: string, options: CallOptions = {}): Promise<V3Message> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: this.#path(messageId),
      schema: v3MessageSchema,
    });
    return data;
  }

  /** Replaces the text of a text part (at most 5 edits within 15 minutes of sending). */
  async edit(
    messageId: string,
    edit: { text: string; partIndex?: number },
    options: CallOptions = {},
  ): Promise<V3Message> {
    if (edit.text.length === 0) {
      throw new PartnerApiError({
        kind: 'validation',
        code: 'invalid_message_content',
        retryable: false,
        message: 'The new text cannot be empty',
      });
    }
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'PATCH',
      path: this.#path(messageId),
      // Setting the same text twice leaves the same message (though it counts towards the 5 edits).
      idempotent: true,
      json: { text: edit.text, part_index: edit.partIndex ?? 0 },
      schema: v3MessageSchema,
    });
    return data;
  }

  /** Removes the message from the service's store (recipients keep their copy). */
  async delete(messageId: string, options: CallOptions = {}): Promise<void> {
    await this.#ctx.http.request({
      ...options,
      method: 'DELETE',
      path: this.#path(messageId),
      idempotent: true,
    });
  }

  /** The thread of any of its messages: the originating message, then its replies. */
  async thread(
    messageId: string,
    request: V3ThreadRequest & { cursor?: string | null } = {},
    options: CallOptions = {},
  ): Promise<CursorPage<V3Message>> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: `${this.#path(messageId)}/thread`,
      query: {
        limit: clampLimit(request.limit, 50),
        cursor: request.cursor ?? undefined,
        order: request.order,
      },
      schema: v3MessageListSchema,
    });
    return { items: data.messages, nextCursor: data.next_cursor };
  }

  threadItems(
    messageId: string,
    request: V3ThreadRequest = {},
    options: CallOptions = {},
  ): AsyncGenerator<V3Message> {
    return cursorItems((cursor) => this.thread(messageId, { ...request, cursor }, options), {
      signal: options.signal,
    });
  }

  /** Adds or removes a reaction; the service acknowledges (202) and reports it as a reaction event. */
  async react(
    messageId: string,
    operation: 'add' | 'remove',
    reaction: V3ReactionInput,
    options: CallOptions = {},
  ): Promise<V3Accepted> {
    if (reaction.type === 'custom' && !reaction.customEmoji) {
      throw new PartnerApiError({
        kind: 'validation',
        code: 'invalid_reaction',
        retryable: false,
        message: 'A custom reaction needs its emoji',
      });
    }
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: `${this.#path(messageId)}/reactions`,
      // Adding a reaction that is there, or removing one that is not, changes nothing.
      idempotent: true,
      json: {
        operation,
        type: reaction.type,
        ...(reaction.customEmoji === undefined ? {} : { custom_emoji: reaction.customEmoji }),
        ...(reaction.partIndex === undefined ? {} : { part_index: reaction.partIndex }),
      },
      schema: v3AcceptedSchema,
    });
    return data;
  }

  #path(messageId: string): string {
    return `/messages/${v3Segment(messageId, 'Message')}`;
  }
}
