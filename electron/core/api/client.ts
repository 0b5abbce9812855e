/**
 * The Partner Messaging Service V2 client. Endpoints are grouped by resource:
 *
 *   const api = new PartnerApiClient({ baseUrl, token });
 *   const lines = await api.lines.list();
 *   const { chat } = await api.chats.create({ line, participants: ['+14155550123'], text: 'Hi' });
 *   await api.messages.send(chat.id, { text: 'Hello', idempotencyKey: outboxJob.key });
 *
 * Every method takes optional `{ signal, priority }` last. Failures are `PartnerApiError`s.
 */
import type { CountryCode } from 'libphonenumber-js';
import { registerSecret } from '../log/logger.ts';
import { ChatsApi } from './endpoints/chats.ts';
import { ContactsApi } from './endpoints/contacts.ts';
import type { EndpointContext } from './endpoints/context.ts';
import { FilesApi } from './endpoints/files.ts';
import { LinesApi } from './endpoints/lines.ts';
import { MessagesApi, ReactionsApi } from './endpoints/messages.ts';
import { WebhooksApi } from './endpoints/webhooks.ts';
import { iMessageAvailabilityResponse, phoneNumberListResponse } from './envelopes.ts';
import { type CallOptions, PartnerHttp, type PartnerHttpOptions } from './http.ts';
import { MAX_ATTACHMENT_BYTES } from './outgoing.ts';
import { toHandle } from './phone.ts';
import type { ApiIMessageAvailability } from './schemas.ts';

export interface PartnerApiClientOptions extends PartnerHttpOptions {
  /** Country for numbers typed without a country code. Default US. */
  defaultCountry?: CountryCode;
  /** Files above this are refused before upload. Default 100 MB (API-GAPS). */
  maxAttachmentBytes?: number;
}

export class PartnerApiClient {
  readonly http: PartnerHttp;
  readonly lines: LinesApi;
  readonly chats: ChatsApi;
  readonly messages: MessagesApi;
  readonly reactions: ReactionsApi;
  readonly contacts: ContactsApi;
  readonly webhooks: WebhooksApi;
  /** Received attachments: `files.download(url, path)`. */
  readonly files: FilesApi;
  readonly #ctx: EndpointContext;

  constructor(options: PartnerApiClientOptions) {
    // From here on no log line or error body can show the token, whatever code prints it.
    registerSecret(options.token);
    this.http = new PartnerHttp(options);
    this.#ctx = {
      http: this.http,
      defaultCountry: options.defaultCountry ?? 'US',
      maxAttachmentBytes: options.maxAttachmentBytes ?? MAX_ATTACHMENT_BYTES,
    };
    this.lines = new LinesApi(this.#ctx);
    this.chats = new ChatsApi(this.#ctx);
    this.messages = new MessagesApi(this.#ctx);
    this.reactions = new ReactionsApi(this.#ctx);
    this.contacts = new ContactsApi(this.#ctx);
    this.webhooks = new WebhooksApi(this.#ctx);
    this.files = new FilesApi(this.#ctx);
  }

  /** One cheap authenticated request, never retried: is the service there? (GET /phone_numbers) */
  async ping(options: CallOptions = {}): Promise<void> {
    await this.http.request({
      priority: 'background',
      ...options,
      method: 'GET',
      path: '/phone_numbers',
      schema: phoneNumberListResponse,
      maxAttempts: 1,
    });
  }

  /**
   * Whether `handle` (a number or an email) can receive iMessage. The service allows about one check
   * per 10 s per token (API-GAPS): cache results and debounce. Its 429 does not slow other requests.
   */
  async checkIMessageAvailability(
    handle: string,
    options: CallOptions = {},
  ): Promise<ApiIMessageAvailability> {
    const { data } = await this.http.request({
      ...options,
      method: 'POST',
      path: '/i_message_availability/check',
      json: { phone_number: toHandle(handle, this.#ctx.defaultCountry, 'phone number') },
      endpointRateLimit: true,
      schema: iMessageAvailabilityResponse,
    });
    return data;
  }
}
