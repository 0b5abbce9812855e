/**
 * What makes a message sendable, shared by both sides: the renderer enables Send by it, and the
 * outbox's door (electron/core/outbox/send-door.ts) refuses every way a message leaves by it
 * (`invalid_input`) before anything is queued.
 */

export interface MessageContent {
  text: string;
  /** Staged files and linked URLs together. */
  attachmentCount: number;
}

/** Shown (and returned as the error) when a message has neither text nor an attachment. */
export const EMPTY_MESSAGE = 'Type a message or add an attachment';

/** A message needs some text that is not only whitespace, or at least one attachment. */
export function isSendable(content: MessageContent): boolean {
  return content.text.trim() !== '' || content.attachmentCount > 0;
}
