/**
 * The wrappers each V2 endpoint puts around its resources, each parsed to what the caller wants (the
 * resource, the list, or null), including the variants API-GAPS asks the client to tolerate.
 */
import { z } from 'zod';
import {
  chatMigrationSchema,
  chatSchema,
  contactPaginationSchema,
  contactSchema,
  createdChatSchema,
  iMessageAvailabilitySchema,
  idSchema,
  messageSchema,
  pageMetaSchema,
  phoneNumberSchema,
  reactionSchema,
  webhookSubscriptionSchema,
} from './schemas.ts';

/** `{data: T}` → T. */
function dataOf<T extends z.ZodType>(schema: T) {
  return z.object({ data: schema }).transform((body) => (body as { data: z.output<T> }).data);
}

/** `{data: T[], meta}` (list chats, list messages). */
function listWithMeta<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), meta: pageMetaSchema });
}

export const chatResponse = dataOf(chatSchema);
export const createdChatResponse = dataOf(createdChatSchema);
export const chatListResponse = listWithMeta(chatSchema);
export const messageResponse = dataOf(messageSchema);
export const messageListResponse = listWithMeta(messageSchema);
export const reactionResponse = dataOf(reactionSchema);
export const contactResponse = dataOf(contactSchema);
export const chatMigrationResponse = dataOf(chatMigrationSchema);
export const iMessageAvailabilityResponse = iMessageAvailabilitySchema;

/** Remove reaction: the spec does not show the answer; the sandbox sends `{data: Reaction}`. */
export const removedReactionResponse = z.unknown().transform((body) => {
  const parsed = reactionResponse.safeParse(body);
  return parsed.success ? parsed.data : null;
});

/** `GET /chats/find`: `{data:{chat}}`, or `{data:{chat:null, messages:[]}}` when nothing matches. */
export const chatFindResponse = z
  .object({ data: z.object({ chat: chatSchema.nullish() }).nullish() })
  .transform((body) => body.data?.chat ?? null);

/** `GET /contacts/find`: the contact itself or `null`; also `{contact: …}`/`{data: …}` or an empty body. */
export const contactFindResponse = z
  .union([
    z.null(),
    z.undefined(),
    z.object({ contact: contactSchema.nullable() }),
    z.object({ data: contactSchema.nullable() }),
    contactSchema,
  ])
  .transform((body) => {
    if (body === null || body === undefined) return null;
    if ('contact' in body) return body.contact;
    if ('data' in body) return body.data;
    return body;
  });

export const contactListResponse = z.object({
  contacts: z.array(contactSchema),
  pagination: contactPaginationSchema,
});

/** `GET /phone_numbers`: `{phone_numbers:[…]}` per the sandbox; `{data:[…]}` or a bare list tolerated. */
export const phoneNumberListResponse = z
  .union([
    z.array(phoneNumberSchema),
    z.object({ phone_numbers: z.array(phoneNumberSchema) }),
    z.object({ data: z.array(phoneNumberSchema) }),
  ])
  .transform((body) =>
    Array.isArray(body) ? body : 'phone_numbers' in body ? body.phone_numbers : body.data,
  );

/** `PUT /phone_numbers/{id}`: the phone number itself (unwrapped); `{data: …}` tolerated. */
export const phoneNumberResponse = z
  .union([z.object({ data: phoneNumberSchema }), phoneNumberSchema])
  .transform((body) => ('data' in body ? body.data : body));

export const webhookSubscriptionResponse = z
  .object({ webhook_subscription: webhookSubscriptionSchema })
  .transform((body) => body.webhook_subscription);

export const webhookSubscriptionListResponse = z
  .union([
    z.object({ webhook_subscriptions: z.array(webhookSubscriptionSchema) }),
    z.object({ data: z.array(webhookSubscriptionSchema) }),
    z.array(webhookSubscriptionSchema),
  ])
  .transform((body) =>
    Array.isArray(body) ? body : 'webhook_subscriptions' in body ? body.webhook_subscriptions : body.data,
  );

/** Edit message: `{message:"Message updated", data:{id, text}}`. */
export const editedMessageResponse = z
  .object({ data: z.object({ id: idSchema, text: z.string() }) })
  .transform((body) => body.data);
