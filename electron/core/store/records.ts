/**
 * What the reconciler writes: the service's facts, normalized (numbers for ids, epoch ms for times),
 * whichever way they arrived (poll, send response, webhook). Fields a source does not carry are
 * `undefined` and leave the stored value alone.
 */
export interface HandleRecord {
  id: number;
  identifier: string;
  service: string;
  joinedAt: number | null;
  isMe: boolean;
}

export interface ChatRecord {
  id: number;
  lineId: number;
  displayName?: string;
  service?: string;
  isGroup?: boolean;
  messageCount?: number;
  handles?: HandleRecord[];
  v3ChatId?: string | null;
}

export interface AttachmentRecord {
  id: string;
  url: string;
  filename: string;
  mimeType: string;
  size: number | null;
}

export interface ReactionRecord {
  id: number;
  messageId: number;
  kind: string;
  fromMe: boolean;
  sender: string;
  at: number;
}

export interface MessageRecord {
  id: number;
  chatId: number;
  text?: string;
  sentAt: number;
  deliveredAt?: number | null;
  /** The service's delivery_status; undefined when the source does not say (webhooks). */
  deliveryStatus?: string;
  editedAt?: number | null;
  isRead?: boolean;
  fromMe: boolean;
  sender: string;
  handleId?: number | null;
  attachments?: AttachmentRecord[];
  /** The full current list (REST); undefined when the source does not carry it. */
  reactions?: ReactionRecord[];
  idempotencyKey?: string | null;
}

export interface ContactRecord {
  id: number;
  firstName: string;
  lastName: string;
  fullName: string;
  email: string;
  phoneNumber: string;
  company: string;
  title: string;
  location: string;
  imageUrl: string | null;
  owner: { id: number; email: string; name: string } | null;
  createdAt: number | null;
  updatedAt: number | null;
}

export interface LineRecord {
  id: number;
  phoneNumber: string;
  forwardingNumber: string | null;
  responseRate: number | null;
  userName: string | null;
  userEmail: string | null;
}
