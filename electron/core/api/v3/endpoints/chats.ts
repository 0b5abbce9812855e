import type { CallOptions } from '../../http.ts';
import type { EndpointContext } from '../../endpoints/context.ts';
import { type V3OutgoingMessage, v3Handle, v3MessageBody } from '../outgoing.ts';
import { clampLimit, type CursorPage, cursorItems, cursorPages } from '../pagination.ts';
import {
  type V3Accepted,
  type V3Chat,
  type V3CreatedChat,
  v3AcceptedSchema,
  v3ChatListSchema,
  v3ChatSchema,
  v3CreatedChatSchema,
  v3UpdatedChatSchema,
} from '../schemas.ts';
import { traceIdOf, v3Segment } from './segment.ts';

export interface V3ChatListRequest {
  /** Only chats of this line (E.164). Default: every line. */
  from?: string;
  /** 1–100; default 20. */
  limit?: number;
}

export interface V3CreateChatInput {
  /** The sending line. */
  from: string;
  /** 1–31 recipients; several make a group. An existing chat with exactly these handles is reused. */
  to: readonly string[];
  message: V3OutgoingMessage;
}

/** `/chats`: list, get, create (with its first message), update a group, read, typing, contact card. */
export class V3ChatsApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  /** One page, newest activity first. */
  async list(
    request: V3ChatListRequest & { cursor?: string | null } = {},
    options: CallOptions = {},
  ): Promise<CursorPage<V3Chat>> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: '/chats',
      query: {
        from:
          request.from === undefined ? undefined : v3Handle(request.from, this.#ctx.defaultCountry, 'line'),
        limit: clampLimit(request.limit, 20),
        cursor: request.cursor ?? undefined,
      },
      schema: v3ChatListSchema,
    });
    return { items: data.chats, nextCursor: data.next_cursor };
  }

  /** Every page from `cursor` on, each chat once. */
  pages(
    request: V3ChatListRequest & { cursor?: string | null } = {},
    options: CallOptions = {},
  ): AsyncGenerator<CursorPage<V3Chat>> {
    return cursorPages((cursor) => this.list({ ...request, cursor }, options), {
      cursor: request.cursor,
      signal: options.signal,
    });
  }

  all(request: V3ChatListRequest = {}, options: CallOptions = {}): AsyncGenerator<V3Chat> {
    return cursorItems((cursor) => this.list({ ...request, cursor }, options), { signal: options.signal });
  }

  async get(chatId: string, options: CallOptions = {}): Promise<V3Chat> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: `/chats/${v3Segment(chatId, 'Chat')}`,
      schema: v3ChatSchema,
    });
    return data;
  }

  /**
   * Creates (or reuses) the chat with its first message (201). With an idempotency key on the message
   * the call is retried on transient failures and sends once.
   */
  async create(
    input: V3CreateChatInput,
    options: CallOptions = {},
  ): Promise<V3CreatedChat & { traceId: string | null }> {
    const country = this.#ctx.defaultCountry;
    const { data, headers } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: '/chats',
      idempotencyKey: input.message.idempotencyKey,
      json: {
        from: v3Handle(input.from, country, 'line'),
        to: input.to.map((to) => v3Handle(to, country, 'recipient')),
        message: v3MessageBody(input.message, country),
      },
      schema: v3CreatedChatSchema,
    });
    return { ...data, traceId: traceIdOf(headers) };
  }

  /** Renames a group chat (a direct chat answers 409 code 1006). */
  async update(chatId: string, change: { displayName: string }, options: CallOptions = {}): Promise<V3Chat> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'PUT',
      path: `/chats/${v3Segment(chatId, 'Chat')}`,
      idempotent: true,
      json: { display_name: change.displayName },
      schema: v3UpdatedChatSchema,
    });
    return data;
  }

  async markRead(chatId: string, options: CallOptions = {}): Promise<void> {
    await this.#noContent('POST', chatId, '/read', options);
  }

  /** Shows "typing…" to the other side (direct chats only: a group answers 409 code 2016). */
  async startTyping(chatId: string, options: CallOptions = {}): Promise<void> {
    await this.#noContent('POST', chatId, '/typing', options);
  }

  async stopTyping(chatId: string, options: CallOptions = {}): Promise<void> {
    await this.#noContent('DELETE', chatId, '/typing', options);
  }

  async shareContactCard(chatId: string, options: CallOptions = {}): Promise<void> {
    // Not idempotent: a repeat would share the card twice.
    await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: `/chats/${v3Segment(chatId, 'Chat')}/share_contact_card`,
    });
  }

  /** Adds someone to a group chat (202; `participant.added` follows). Not retried: a repeat is a 2015. */
  async addParticipant(chatId: string, handle: string, options: CallOptions = {}): Promise<V3Accepted> {
    return this.#participants('POST', chatId, handle, options);
  }

  /** Removes someone from a group chat (202; `participant.removed` follows). */
  async removeParticipant(chatId: string, handle: string, options: CallOptions = {}): Promise<V3Accepted> {
    return this.#participants('DELETE', chatId, handle, options);
  }

  /** Leaves a group chat (202); afterwards the chat answers 409 code 2013. */
  async leave(chatId: string, options: CallOptions = {}): Promise<V3Accepted> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: `/chats/${v3Segment(chatId, 'Chat')}/leave`,
      schema: v3AcceptedSchema,
    });
    return data;
  }

  async #participants(
    method: 'POST' | 'DELETE',
    chatId: string,
    handle: string,
    options: CallOptions,
  ): Promise<V3Accepted> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method,
      path: `/chats/${v3Segment(chatId, 'Chat')}/participants`,
      json: { handle: v3Handle(handle, this.#ctx.defaultCountry, 'participant') },
      schema: v3AcceptedSchema,
    });
    return data;
  }

  async #noContent(
    method: 'POST' | 'DELETE',
    chatId: string,
    suffix: string,
    options: CallOptions,
  ): Promise<void> {
    await this.#ctx.http.request({
      ...options,
      method,
      path: `/chats/${v3Segment(chatId, 'Chat')}${suffix}`,
      idempotent: true,
    });
  }
}
