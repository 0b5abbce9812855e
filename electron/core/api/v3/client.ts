/**
 * The Partner Messaging Service V3 client, beside the V2 one (`../client.ts`) and on the same request
 * core: the same budget for the token (V2 and V3 calls of one token share the service's rate limit),
 * the same keep-alive pool, retries, timeouts and `PartnerApiError`s. Differences are configuration:
 * `Authorization: Bearer <token>`, the /api/partner/v3 prefix, opaque string ids, cursor paging.
 *
 *   const api = new PartnerApiV3Client({ baseUrl, token });
 *   const [line] = await api.lines.list();
 *   const { chat, message } = await api.chats.create({
 *     from: line.phone_number, to: ['+14155550123'],
 *     message: { parts: [{ type: 'text', value: 'Hi' }], idempotencyKey: job.key },
 *   });
 *   for await (const m of api.messages.all(chat.id, {}, { priority: 'background' })) store(m);
 */
import type { CountryCode } from 'libphonenumber-js';
import { registerSecret } from '../../log/logger.ts';
import { V3_PREFIX } from '../base-url.ts';
import type { EndpointContext } from '../endpoints/context.ts';
import { FilesApi } from '../endpoints/files.ts';
import { PartnerHttp, type PartnerHttpOptions } from '../http.ts';
import { V3AttachmentsApi, type V3AttachmentsOptions, V3_MAX_UPLOAD_BYTES } from './endpoints/attachments.ts';
import { V3ChatsApi } from './endpoints/chats.ts';
import { V3LinesApi } from './endpoints/lines.ts';
import { V3MessagesApi } from './endpoints/messages.ts';
import { V3WebhooksApi } from './endpoints/webhooks.ts';

export interface PartnerApiV3ClientOptions extends Omit<
  PartnerHttpOptions,
  'tokenHeader' | 'tokenScheme' | 'prefix'
> {
  /** Country for numbers typed without a country code. Default US. */
  defaultCountry?: CountryCode;
  /** Files above this are refused before upload. Default (and at most) 100 MB. */
  maxAttachmentBytes?: number;
  uploads?: V3AttachmentsOptions;
}

export class PartnerApiV3Client {
  readonly http: PartnerHttp;
  readonly chats: V3ChatsApi;
  readonly messages: V3MessagesApi;
  readonly attachments: V3AttachmentsApi;
  readonly lines: V3LinesApi;
  readonly webhooks: V3WebhooksApi;
  /** Media by its address (presigned, or on the service's origin: then with the Bearer token). */
  readonly files: FilesApi;

  constructor(options: PartnerApiV3ClientOptions) {
    registerSecret(options.token);
    this.http = new PartnerHttp({ ...options, tokenScheme: 'Bearer', prefix: V3_PREFIX });
    const ctx: EndpointContext = {
      http: this.http,
      defaultCountry: options.defaultCountry ?? 'US',
      maxAttachmentBytes: Math.min(options.maxAttachmentBytes ?? V3_MAX_UPLOAD_BYTES, V3_MAX_UPLOAD_BYTES),
    };
    this.chats = new V3ChatsApi(ctx);
    this.messages = new V3MessagesApi(ctx);
    this.attachments = new V3AttachmentsApi(ctx, options.uploads);
    this.lines = new V3LinesApi(ctx);
    this.webhooks = new V3WebhooksApi(ctx);
    this.files = new FilesApi(ctx);
  }
}
