/** REST response shapes (V2), from the spec's resource tables. Date-times are ISO 8601. */
import {
  REACTION_TYPES,
  type Attachment,
  type Chat,
  type Contact,
  type Handle,
  type Line,
  type Message,
  type Org,
  type Reaction,
  type Subscription,
} from './model.ts';
import { chatDisplayName, fullName } from './names.ts';
import { isoTime } from './time.ts';

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));

export function presentHandle(handle: Handle): Record<string, unknown> {
  return {
    id: handle.id,
    phone_number: handle.identifier,
    service: handle.service,
    joined_at: isoTime(handle.joinedAt),
  };
}

export function presentChat(org: Org, chat: Chat): Record<string, unknown> {
  return {
    id: chat.id,
    display_name: chatDisplayName(org, chat),
    service: chat.service,
    group: chat.group,
    message_count: chat.messages.length,
    chat_handles: chat.handles.filter((h) => h.departedAt === null).map(presentHandle),
  };
}

export function presentAttachment(attachment: Attachment): Record<string, unknown> {
  return {
    id: attachment.id,
    url: attachment.url,
    filename: attachment.filename,
    mime_type: attachment.mimeType,
    file_size: attachment.fileSize,
  };
}

export function presentReaction(reaction: Reaction): Record<string, unknown> {
  return {
    id: reaction.id,
    chat_message_id: reaction.messageId,
    reaction: reaction.type,
    is_from_me: reaction.isFromMe,
    from_phone: reaction.fromPhone,
    sent_at: isoTime(reaction.sentAt),
    created_at: isoTime(reaction.createdAt),
    updated_at: isoTime(reaction.updatedAt),
  };
}

export function presentMessage(
  message: Message,
  options: { forCreateChat?: boolean } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: message.id,
    text: message.text,
    sent_at: isoTime(message.sentAt),
    delivered_at: isoOrNull(message.deliveredAt),
    delivery_status: message.deliveryStatus,
    is_read: message.isRead,
    sent_from: message.sentFrom,
    chat_handle_id: message.handleId,
    attachments: message.attachments.map(presentAttachment),
  };
  // The spec: edited_at and reactions are absent from the create chat response.
  if (!options.forCreateChat) {
    body.edited_at = isoOrNull(message.editedAt);
    body.reactions = message.reactions
      .filter((r) => (REACTION_TYPES as readonly string[]).includes(r.type))
      .map(presentReaction);
  }
  return body;
}

/** `time` formats the timestamps: ISO for REST, the webhook form for contact events. */
export function presentContact(
  org: Org,
  contact: Contact,
  time: (ms: number) => string = isoTime,
): Record<string, unknown> {
  const owner = org.users.find((u) => u.id === contact.ownerId);
  return {
    id: contact.id,
    first_name: contact.firstName,
    last_name: contact.lastName,
    full_name: fullName(contact),
    email: contact.email,
    phone_number: contact.phoneNumber,
    company: contact.company,
    title: contact.title,
    location: contact.location,
    image_url: contact.imageUrl,
    created_at: time(contact.createdAt),
    updated_at: time(contact.updatedAt),
    contact_owner: owner
      ? {
          id: owner.id,
          email: owner.email,
          first_name: owner.firstName,
          last_name: owner.lastName,
          name: `${owner.firstName} ${owner.lastName}`.trim(),
        }
      : null,
  };
}

export function presentSubscription(subscription: Subscription): Record<string, unknown> {
  return {
    id: subscription.id,
    webhook_url: subscription.webhookUrl,
    version: subscription.version,
    events: subscription.events,
    active: subscription.active,
    secret_configured: subscription.secret !== null,
    last_delivered_at: isoOrNull(subscription.lastDeliveredAt),
    delivery_attempts: subscription.deliveryAttempts,
    created_at: isoTime(subscription.createdAt),
    updated_at: isoTime(subscription.updatedAt),
  };
}

export function presentLine(org: Org, line: Line): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: line.id,
    phone_number: line.phoneNumber,
    forwarding_number: line.forwardingNumber,
    response_rate: line.responseRate,
  };
  const user = org.users.find((u) => u.id === line.userId);
  if (user) body.user = { id: user.id, name: `${user.firstName} ${user.lastName}`.trim(), email: user.email };
  return body;
}
