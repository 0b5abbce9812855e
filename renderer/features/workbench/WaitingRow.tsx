import type { ReactNode } from 'react';
import type { Chat } from '../../../shared/domain.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { ServiceBadge } from '../../components/ServiceBadge.tsx';
import { chatTitle } from '../../lib/chat-presentation.ts';

/**
 * A conversation in a list of chats put aside (waiting on you, snoozed): who and the last message,
 * then how long or until when (`age`), then what can be done with it (`children`, its buttons).
 */
export function WaitingRow({
  chat,
  overdue = false,
  age,
  testId,
  children,
}: {
  chat: Chat;
  /** Marks the row and its age as past the agent's overdue threshold. */
  overdue?: boolean;
  age: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const title = chatTitle(chat);
  const late = overdue ? ' is-overdue' : '';
  return (
    <li className={`waiting-row${late}`} aria-label={title} data-testid={testId}>
      <Avatar name={title} group={chat.isGroup} size={34} />
      <div className="waiting-text">
        <span className="waiting-title">
          {title} <ServiceBadge service={chat.service} compact />
        </span>
        <span className="waiting-preview">{chat.lastMessage?.text || 'Attachment'}</span>
      </div>
      <span className={`waiting-age${late}`}>{age}</span>
      {children}
    </li>
  );
}
