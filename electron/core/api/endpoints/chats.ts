import {
  chatFindResponse,
  chatListResponse,
  chatMigrationResponse,
  chatResponse,
  createdChatResponse,
} from '../envelopes.ts';
import { isPartnerApiError } from '../errors.ts';
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
import { toE164, toHandle } from '../phone.ts';
import type { ApiChat, ApiChatMigration, ApiMessage } from '../schemas.ts';
import { type EndpointContext, idSegment } from './context.ts';

export interface CreateChatInput extends OutgoingMessage {
  /** The organization's line to send from (`send_from`). */
  line: string;
  /** Recipients: phone numbers (normalized to E.164) or iMessage email addresses. */
  participants: readonly string[];
  displayName?: string;
}

export interface CreatedChat {
  /** The chat, without the initial message. */
  chat: ApiChat;
  /** The message this call sent (or, for a reused idempotency key, the one sent before). */
  message: ApiMessage;
  /** 201: a new chat. 200: an existing chat with these participants (the message was sent there). */
  created: boolean;
}

export interface FindChatInput {
  line: string;
  /** One participant for a direct chat, several for a group. */
  participants: readonly string[];
}

/** Chats: `/chats` and the actions on one chat. */
export class ChatsApi {
  readonly #ctx: EndpointContext;

  constructor(ctx: EndpointContext) {
    this.#ctx = ctx;
  }

  /** One page of the line's chats, most recent activity first (do not rely on the order). */
  async list(line: string, request: PageRequest = {}, options: CallOptions = {}): Promise<Page<ApiChat>> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: '/chats',
      query: {
        phone_number: toE164(line, this.#ctx.defaultCountry, 'line'),
        ...pageQuery(request),
      },
      schema: chatListResponse,
    });
    return pageFromMeta(data.data, data.meta);
  }

  /** Every page of the line's chats (100 per request unless told otherwise). */
  pages(line: string, request: PagesOptions = {}, options: CallOptions = {}): AsyncGenerator<Page<ApiChat>> {
    return listPages((page, o) => this.list(line, page, o), request, options);
  }

  async get(chatId: number, options: CallOptions = {}): Promise<ApiChat> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: `/chats/${idSegment(chatId, 'Chat')}`,
      schema: chatResponse,
    });
    return data;
  }

  /** The chat on `line` with exactly these participants, or null. */
  async find(input: FindChatInput, options: CallOptions = {}): Promise<ApiChat | null> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: '/chats/find',
      query: {
        phone_number: toE164(input.line, this.#ctx.defaultCountry, 'line'),
        'phone_numbers[]': input.participants.map((p) => toHandle(p, this.#ctx.defaultCountry)),
      },
      schema: chatFindResponse,
    });
    return data;
  }

  /**
   * Find-or-create: sends the first message to a new chat, or to the existing chat with these
   * participants. With an idempotency key the call is retried safely and never sends twice.
   */
  async create(input: CreateChatInput, options: CallOptions = {}): Promise<CreatedChat> {
    const country = this.#ctx.defaultCountry;
    const sendFrom = toE164(input.line, country, 'line');
    const participants = input.participants.map((p) => toHandle(p, country));
    checkIdempotencyKey(input.idempotencyKey);
    const files = await prepareFiles(input.files ?? [], this.#ctx.maxAttachmentBytes);
    const chatFields: [string, string][] = [
      ['send_from', sendFrom],
      ...(input.displayName ? [['chat[display_name]', input.displayName] as [string, string]] : []),
      ...participants.map((p): [string, string] => ['chat[phone_numbers][]', p]),
    ];
    const { status, data } = await this.#ctx.http.request({
      ...options,
      method: 'POST',
      path: '/chats',
      idempotencyKey: input.idempotencyKey,
      ...(files.length > 0
        ? { form: () => messageForm(input, files, chatFields) }
        : {
            json: {
              send_from: sendFrom,
              chat: {
                phone_numbers: participants,
                ...(input.displayName ? { display_name: input.displayName } : {}),
              },
              message: messageJson(input),
            },
          }),
      schema: createdChatResponse,
    });
    const { chat_messages: message, ...chat } = data;
    return { chat, message, created: status === 201 };
  }

  /**
   * The V3 id of a V2 chat. A chat that cannot migrate (422) is a result too: `migrated: false`,
   * `v3_chat_id: null`.
   */
  async migrateToV3(chatId: number, options: CallOptions = {}): Promise<ApiChatMigration> {
    const { data } = await this.#ctx.http.request({
      ...options,
      method: 'GET',
      path: `/chats/${idSegment(chatId, 'Chat')}/migrate_to_v3`,
      alsoAccept: [422],
      schema: chatMigrationResponse,
    });
    return data;
  }

  /** Marks every inbound message of the chat read. */
  async markAsRead(chatId: number, options: CallOptions = {}): Promise<void> {
    await this.#action('PUT', chatId, 'mark_as_read', options);
  }

  /** Shows the typing indicator (60 s, or until a message is sent). */
  async startTyping(chatId: number, options: CallOptions = {}): Promise<void> {
    await this.#action('POST', chatId, 'start_typing', options);
  }

  async stopTyping(chatId: number, options: CallOptions = {}): Promise<void> {
    await this.#action('DELETE', chatId, 'stop_typing', options);
  }

  /** Shares the organization's contact card; a 403 means the feature is not enabled (API-GAPS). */
  async shareContact(chatId: number, options: CallOptions = {}): Promise<void> {
    try {
      await this.#action('POST', chatId, 'share_contact', options);
    } catch (error) {
      if (isPartnerApiError(error) && error.kind === 'forbidden') {
        throw error.withMessage('Sharing your contact card is not enabled for your organization');
      }
      throw error;
    }
  }

  /** Endpoints whose success body is empty (any 2xx is success). */
  async #action(
    method: 'PUT' | 'POST' | 'DELETE',
    chatId: number,
    action: string,
    options: CallOptions,
  ): Promise<void> {
    await this.#ctx.http.request({
      ...options,
      method,
      path: `/chats/${idSegment(chatId, 'Chat')}/${action}`,
    });
  }
}
