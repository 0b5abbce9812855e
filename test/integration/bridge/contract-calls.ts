/**
 * One real call of every bridge method, with what it must do, run in this order through a transport
 * under test: reads first, then changes, then workspace changes (which reopen the session). Each call
 * is checked by its answer and, where it changes something, by reading the change back through the
 * bridge (or from the service). Typed by the contract: a new method needs an entry, in the
 * contract-calls-*.ts file of its kind.
 */
import type { MethodName } from '../../../shared/contract/methods.ts';
import { appAndWorkspaceReadCalls } from './contract-calls-app.ts';
import { chatAndMessageCalls } from './contract-calls-chats.ts';
import { contactLineAndSettingsCalls } from './contract-calls-contacts-settings.ts';
import { workbenchCalls } from './contract-calls-workbench.ts';
import { workspaceChangeAndTeamCalls } from './contract-calls-workspaces.ts';
import type { Call, CallState } from './contract-call-kit.ts';

export function contractCalls(): Record<MethodName, Call> {
  // `f` is set by 'app.info', the first call; the workspace ids by the workspace calls.
  const s = { demoWorkspaceId: '', secondWorkspaceId: '', thirdWorkspaceId: '' } as CallState;
  return {
    ...appAndWorkspaceReadCalls(s),
    ...chatAndMessageCalls(s),
    ...contactLineAndSettingsCalls(s),
    ...workbenchCalls(s),
    ...workspaceChangeAndTeamCalls(s),
  };
}
