/** Row shapes as SQLite returns them, and their mapping to the shared domain types. */
import type { Attachment, Contact, Line, MessageError, Reaction } from '../../../shared/domain.ts';

export interface ChatRow {
  id: number;
  line_id: number;
  display_name: string;
  service: string;
  is_group: number;
  message_count: number;
  v3_chat_id: string | null;
  last_activity_at: number;
  last_message_key: string | null;
  unread_count: number;
  pinned: number;
  archived: number;
  marked_unread: number;
  synced_message_count: number | null;
  history_complete: number;
  health_status: string | null;
  health_doc_url: string | null;
  health_updated_at: number | null;
}

export interface HandleRow {
  id: number;
  chat_id: number;
  identifier: string;
  service: string;
  joined_at: number | null;
  is_me: number;
}

export interface MessageRow {
  key: string;
  id: number | null;
  chat_id: number;
  text: string;
  sent_at: number;
  delivered_at: number | null;
  state: string;
  edited_at: number | null;
  is_read: number;
  from_me: number;
  sender: string;
  handle_id: number | null;
  idempotency_key: string | null;
  error_json: string | null;
  failure_json: string | null;
  deleted: number;
  reply_to_message_id: string | null;
  reply_to_part_index: number | null;
  effect_type: string | null;
  effect_name: string | null;
  link_url: string | null;
  /** 0 while only a V2 delivery has dated the message (to the second): migrations/message-times.ts. */
  time_settled: number;
}

export interface AttachmentRow {
  id: string;
  message_key: string;
  position: number;
  url: string;
  filename: string;
  mime_type: string;
  size: number | null;
}

export interface ReactionRow {
  id: number;
  message_id: number;
  kind: string;
  from_me: number;
  sender: string;
  at: number;
  part_index: number | null;
  custom_emoji: string | null;
}

export interface ContactRow {
  id: number;
  first_name: string;
  last_name: string;
  full_name: string;
  email: string;
  phone_number: string;
  company: string;
  title: string;
  location: string;
  image_url: string | null;
  owner_json: string | null;
  created_at: number | null;
  updated_at: number | null;
}

export interface LineRow {
  id: number;
  phone_number: string;
  forwarding_number: string | null;
  response_rate: number | null;
  user_name: string | null;
  user_email: string | null;
  remote_id: string | null;
  reputation_status: string | null;
  reputation_doc_url: string | null;
}

export const toLine = (row: LineRow): Line => ({
  id: row.id,
  phoneNumber: row.phone_number,
  forwardingNumber: row.forwarding_number,
  responseRate: row.response_rate,
  userName: row.user_name,
  userEmail: row.user_email,
});

export const toAttachment = (row: AttachmentRow): Attachment => ({
  id: row.id,
  url: row.url,
  filename: row.filename,
  mimeType: row.mime_type,
  size: row.size,
});

export const toReaction = (row: ReactionRow): Reaction => ({
  id: row.id,
  messageId: row.message_id,
  kind: row.kind,
  fromMe: row.from_me === 1,
  from: row.sender,
  at: row.at,
  // A V3 source states each reaction's part and emoji; V2 has neither (NULL).
  ...(row.part_index === null ? {} : { partIndex: row.part_index, customEmoji: row.custom_emoji }),
});

export const toContact = (row: ContactRow): Contact => ({
  id: row.id,
  firstName: row.first_name,
  lastName: row.last_name,
  fullName: row.full_name,
  email: row.email,
  phoneNumber: row.phone_number,
  company: row.company,
  title: row.title,
  location: row.location,
  imageUrl: row.image_url,
  owner: row.owner_json ? (JSON.parse(row.owner_json) as Contact['owner']) : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function parseError(json: string | null): MessageError | null {
  return json ? (JSON.parse(json) as MessageError) : null;
}

/** `?, ?, ?` for an IN list. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}
