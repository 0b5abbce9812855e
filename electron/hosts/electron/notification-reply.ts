/**
 * A reply typed into a notification (macOS's inline field, the Windows toast's input) leaves through
 * the contract method the quick-reply window calls, `workbench.quickReply`, over the same validating
 * dispatcher: the same door, the same rules, the same refusal as every other way a message leaves.
 * The notification is gone by then, so a refusal has nowhere to show: it is handed to `refused`.
 */
import type { BridgeErrorShape } from '../../../shared/contract/errors.ts';
import type { MethodInput, MethodName } from '../../../shared/contract/methods.ts';
import type { DispatchResult } from '../../core/index.ts';

/** The core's dispatcher (AppCore.dispatch): every bridge call's one entry. */
export type Dispatch = (method: string, input: unknown) => Promise<DispatchResult>;

const QUICK_REPLY = 'workbench.quickReply' satisfies MethodName;

/** Sends a notification's reply through the contract; resolves once it is queued or refused. */
export function replyThroughContract(
  dispatch: () => Dispatch | undefined,
  refused: (error: BridgeErrorShape) => void,
): (chatId: number, text: string) => Promise<void> {
  return async (chatId, text) => {
    const call = dispatch();
    if (!call) return;
    const input: MethodInput<typeof QUICK_REPLY> = { chatId, text };
    const result = await call(QUICK_REPLY, input);
    if (!result.ok) refused(result.error);
  };
}
