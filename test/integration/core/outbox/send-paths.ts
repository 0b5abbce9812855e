/**
 * The ways a message leaves, as the renderer and the hosts take them: the contract's methods over
 * the core's validating dispatcher (the handlers the app runs, on a real session against the
 * sandbox), and a notification's inline reply through the Electron host's notifier and its contract
 * call. Also what "nothing left" means: no request that changes anything reached the service, and
 * no job or message of the agent's was written.
 */
import { EventEmitter } from 'node:events';
import type { Notification } from 'electron';
import { createDispatcher } from '../../../../electron/core/app/dispatch.ts';
import type { HandlerContext } from '../../../../electron/core/app/handler-context.ts';
import { createHandlers } from '../../../../electron/core/app/handlers.ts';
import type { WorkspaceSession } from '../../../../electron/core/session.ts';
import { replyThroughContract } from '../../../../electron/hosts/electron/notification-reply.ts';
import { createNativeNotifier } from '../../../../electron/hosts/electron/notifications.ts';
import { createParleyClient, type ParleyApi } from '../../../../shared/contract/client.ts';
import type { BridgeErrorShape } from '../../../../shared/contract/errors.ts';
import type { TimedAttempt } from '../sync/v3-helpers.ts';

/**
 * The renderer's client over the app's own handlers and dispatcher, on this session. The send
 * methods use nothing of the app but its session; anything else they reached for would throw.
 */
export function contractOver(session: WorkspaceSession): {
  parley: ParleyApi;
  dispatch: ReturnType<typeof createDispatcher>;
} {
  const context = new Proxy({} as HandlerContext, {
    get(_target, name) {
      if (name === 'session') return session;
      throw new Error(`a send path reached for the app's ${String(name)}`);
    },
  });
  const dispatch = createDispatcher(createHandlers(context));
  const parley = createParleyClient({
    async invoke(method, input) {
      const result = await dispatch(method, input);
      if (!result.ok) throw result.error;
      return result.value;
    },
    subscribe: () => () => undefined,
  });
  return { parley, dispatch };
}

/** Electron's Notification, as far as the notifier uses it: the test answers it. */
class AnsweredNotification extends EventEmitter {
  static last: AnsweredNotification | undefined;
  static isSupported(): boolean {
    return true;
  }
  show(): void {
    AnsweredNotification.last = this;
  }
  close(): void {}
}

/**
 * A reply typed into a macOS notification's inline field, wired as electron/main.ts wires it:
 * resolves with the refusal the contract answered, or undefined when the reply was queued.
 */
export function inlineReplier(
  dispatch: ReturnType<typeof createDispatcher>,
): (chatId: number, text: string) => Promise<BridgeErrorShape | undefined> {
  let refusal: BridgeErrorShape | undefined;
  let sent: Promise<void> = Promise.resolve();
  const reply = replyThroughContract(
    () => dispatch,
    (error) => (refusal = error),
  );
  const notify = createNativeNotifier({
    Notification: AnsweredNotification as unknown as typeof Notification,
    platform: 'darwin',
    preferences: () => ({ enabled: true, showPreview: true, sound: false }),
    focusWindow: () => undefined,
    openChat: () => undefined,
    reply: (chatId, text) => {
      sent = reply(chatId, text);
    },
    markRead: () => undefined,
    openQuickReply: () => undefined,
  });
  return async (chatId, text) => {
    refusal = undefined;
    notify({ chatId, messageKey: `notice-${chatId}`, title: 'A customer', body: 'Are you open?' });
    AnsweredNotification.last?.emit('reply', { reply: text });
    await sent;
    return refusal;
  };
}

/** The bridge error a call was refused with (the shape that crosses the bridge). */
export async function refusalOf(attempt: () => Promise<unknown>): Promise<BridgeErrorShape> {
  try {
    await attempt();
  } catch (error) {
    const { code, message, retryable, field } = error as BridgeErrorShape;
    return { code, message, retryable, ...(field ? { field } : {}) };
  }
  throw new Error('the send was not refused');
}

/** What a refused send must leave as it found: writes to the service, outbox jobs, the agent's messages. */
export interface Footprint {
  writesToService: number;
  outboxJobs: number;
  messagesOfMine: number;
}

export function footprint(
  session: WorkspaceSession,
  attempts: readonly TimedAttempt[],
  chatId: number,
): Footprint {
  return {
    writesToService: attempts.filter((a) => a.method !== 'GET').length,
    outboxJobs: session.store.outbox.count(),
    messagesOfMine: session.store.messages.page(chatId, { limit: 1000 }).filter((m) => m.fromMe).length,
  };
}
