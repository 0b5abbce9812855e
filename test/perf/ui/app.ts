/** bench:ui's calls into the app's core through the browser host: methods, live events, a settled chat. */
import type { BrowserHost } from '../../../electron/browser-host.ts';
import type { MethodInput, MethodName, MethodOutput } from '../../../shared/contract/methods.ts';
import { inspectStore } from '../../integration/store-inspector.ts';
import { sleep } from './numbers.ts';

export async function call<M extends MethodName>(
  host: BrowserHost,
  method: M,
  input: MethodInput<M>,
): Promise<MethodOutput<M>> {
  const result = await host.core.dispatch(method, input);
  if (!result.ok) throw new Error(`${method}: ${result.error.code} ${result.error.message}`);
  return result.value as MethodOutput<M>;
}

/** Turns live events on or off as the live-status panel does, and waits until the status follows. */
export async function liveEvents(host: BrowserHost, enabled: boolean): Promise<void> {
  await call(host, 'webhooks.configure', { enabled, provider: 'direct' });
  for (let i = 0; ; i++) {
    const { state } = await call(host, 'webhooks.status', {});
    if (state === (enabled ? 'live' : 'polling')) return;
    if (i > 100) throw new Error(`live events did not turn ${enabled ? 'on' : 'off'} (${state})`);
    await sleep(100);
  }
}

/** Waits until the chat has no message still on its way (the sync polls those sooner). */
export async function settled(host: BrowserHost, chatId: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const row = inspectStore(host.core.session.store, (db) =>
      db.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM messages WHERE chat_id = ? AND from_me = 1 AND state <> 'delivered'",
        chatId,
      ),
    );
    if ((row?.n ?? 0) === 0) break;
    await sleep(100);
  }
  await sleep(4_000);
}
