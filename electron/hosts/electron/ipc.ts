/**
 * The main-process end of the Electron bridge: one `ipcMain.handle` channel for every method of the
 * contract, and one push channel for events. Every call is checked once, here, before anything runs:
 * the sender must be a window Parley created, the call must come from its top frame, and that frame
 * must show the app's own page (`parley://app/…`). Input validation is the dispatcher's job
 * (core.dispatch parses every input with the method's schema).
 * Electron's objects are passed in, so the tests can drive this with an in-process fake.
 */
import type { BridgeErrorShape } from '../../../shared/contract/errors.ts';
import type { EventName, Events } from '../../../shared/contract/events.ts';
import { createLogger } from '../../core/log/logger.ts';
import { EVENT_CHANNEL, INVOKE_CHANNEL, isAppUrl } from './channels.ts';

const log = createLogger('electron-ipc');

/** What the handler reads from Electron's IpcMainInvokeEvent. */
export interface InvokeEventLike {
  sender: { id: number };
  /** Null when the frame navigated away or was destroyed before the call arrived. */
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export type BridgeReply = { ok: true; value: unknown } | { ok: false; error: BridgeErrorShape };

export interface BridgeIpcOptions {
  ipcMain: IpcMainLike;
  /** The core's dispatcher: checks the method exists and validates the input with its schema. */
  dispatch(method: string, input: unknown): Promise<BridgeReply>;
  /** Whether these webContents belong to a window Parley created (not DevTools, not a stray view). */
  isAppWebContents(sender: { id: number }): boolean;
}

const REFUSED: BridgeReply = {
  ok: false,
  error: { code: 'forbidden', message: 'This page may not use Parley’s bridge', retryable: false },
};

/** Why a call is refused, or null when its sender is the app's own page. */
export function senderProblem(
  event: InvokeEventLike,
  isAppWebContents: (sender: { id: number }) => boolean,
): string | null {
  if (!isAppWebContents(event.sender)) return 'not a Parley window';
  const frame = event.senderFrame;
  if (!frame) return 'the frame is gone';
  if (frame.parent !== null) return 'not the top frame';
  if (!isAppUrl(frame.url)) return 'not the app origin';
  return null;
}

/** Registers the bridge's one invoke handler; returns a function that removes it. */
export function registerBridgeIpc(options: BridgeIpcOptions): () => void {
  options.ipcMain.handle(INVOKE_CHANNEL, async (event, method, input): Promise<BridgeReply> => {
    const problem = senderProblem(event, options.isAppWebContents);
    if (problem) {
      // The URL is logged without its query and fragment: those may carry what the page typed.
      const url = event.senderFrame?.url.split(/[?#]/)[0] ?? null;
      log.warn('refused a bridge call', { problem, url, method: String(method).slice(0, 80) });
      return REFUSED;
    }
    if (typeof method !== 'string') {
      return {
        ok: false,
        error: { code: 'invalid_input', message: 'A call needs a method name', retryable: false },
      };
    }
    return options.dispatch(method, input);
  });
  return () => options.ipcMain.removeHandler(INVOKE_CHANNEL);
}

/** The webContents events are pushed to. */
export interface EventTarget {
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

/**
 * Sends a core event to every app window. Events are fire-and-forget: a window that is closing
 * simply misses them and reloads its state when it next loads.
 */
export function sendBridgeEvent<E extends EventName>(
  targets: Iterable<EventTarget>,
  event: E,
  payload: Events[E],
): void {
  for (const target of targets) {
    if (!target.isDestroyed()) target.send(EVENT_CHANNEL, event, payload);
  }
}
