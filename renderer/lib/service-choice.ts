/**
 * The service the next message asks for: Automatic, iMessage, RCS or SMS. Whether the workspace lets
 * the agent choose at all is a capability (capabilities.ts `serviceChoice`).
 */
import type { Chat } from '../../shared/domain.ts';
import { ALLOWED, denied, type Permission } from './permission.ts';

export type ServiceChoice = 'auto' | 'iMessage' | 'RCS' | 'SMS';

export interface ServiceOption {
  value: ServiceChoice;
  label: string;
  permission: Permission;
}

/**
 * The choices for one message of a chat, each refused with its reason where it cannot apply. With
 * `canChoose` false (a workspace without the choice) only Automatic is allowed: the list is shown
 * then only to take back a choice a draft still carries.
 */
export function serviceOptions(chat: Pick<Chat, 'handles'>, canChoose: boolean): ServiceOption[] {
  const unchoosable = canChoose ? null : denied('Choosing a service: needs a V3 workspace');
  const customers = chat.handles.filter((h) => !h.isMe);
  const hasEmail = customers.some((h) => h.identifier.includes('@'));
  const phoneOnly = hasEmail ? denied('An email address can be reached over iMessage only') : ALLOWED;
  return [
    { value: 'auto', label: 'Automatic', permission: ALLOWED },
    { value: 'iMessage', label: 'iMessage', permission: unchoosable ?? ALLOWED },
    { value: 'RCS', label: 'RCS', permission: unchoosable ?? phoneOnly },
    { value: 'SMS', label: 'SMS', permission: unchoosable ?? phoneOnly },
  ];
}
