/** The Partner Messaging Service client: the public surface of electron/core/api. */
export { PartnerApiClient, type PartnerApiClientOptions } from './client.ts';
export type { CreateChatInput, CreatedChat, FindChatInput } from './endpoints/chats.ts';
export type { ContactInput } from './endpoints/contacts.ts';
export type { MessageFilter, SentMessage } from './endpoints/messages.ts';
export type { WebhookSubscriptionInput } from './endpoints/webhooks.ts';
export { PartnerApiError, isPartnerApiError, type PartnerApiErrorKind } from './errors.ts';
export {
  budgetFor,
  forgetBudget,
  RequestBudget,
  type BudgetOptions,
  type RequestPriority,
} from './budget.ts';
export {
  closeSharedDispatcher,
  DEFAULT_TOKEN_HEADER,
  PartnerHttp,
  type AttemptRecord,
  type CallOptions,
  type PartnerHttpOptions,
} from './http.ts';
export {
  ALLOWED_ATTACHMENT_TYPES,
  MAX_ATTACHMENT_BYTES,
  type OutgoingFile,
  type OutgoingMessage,
} from './outgoing.ts';
export { MAX_PER_PAGE, items, pages, type Page, type PageRequest, type PagesOptions } from './pagination.ts';
export { toE164, toHandle } from './phone.ts';
export { probeConnection, type ProbeOptions, type ProbeTarget } from './probe.ts';
export * from './schemas.ts';
