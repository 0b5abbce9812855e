import type { Message, ReactionKind } from '../../shared/domain.ts';
import type { AttachmentActions } from './AttachmentView.tsx';

/** What a message's bubble can ask of the app: the timeline gives one set to every bubble. */
export interface MessageHandlers extends AttachmentActions {
  onReact(message: Message, kind: ReactionKind): void;
  onStartEdit(message: Message): void;
  onSaveEdit(message: Message, text: string): void;
  onCancelEdit(): void;
  onDelete(message: Message): void;
  onCopy(text: string): void;
  onRetry(key: string): void;
  onDiscard(key: string): void;
  /** A message accepted and then not delivered: a new one with the same words and a fresh key. */
  onSendAgain(message: Message): void;
  onReply(message: Message, author: string): void;
  onOpenThread(message: Message): void;
  /** Shows the quoted message (scrolls to it, or opens the thread when it is not loaded). */
  onRevealQuoted(message: Message): void;
  onCustomReact(message: Message, emoji: string): void;
  /** Opens a link card's address in the system browser. */
  onOpenLink(url: string): void;
}
