/**
 * The main-process end of the Electron bridge: one `ipcMain.handle` channel for every method of the
 * contract, and one push channel for events. Every call is checked once, here, before anything runs:
 * the sender must be a window Parley created, the call must come from its top frame, and that frame
 * must show the app's own page (`parley://app/…`). Input validation is the dispatcher's job
 * (core.dispatch parses every input with the method's schema).
 * Files are staged on their own channel, from the preload only (see channels.ts STAGE_CHANNEL).
 * Electron's objects are passed in, so the tests can drive this with an in-process fake.
 */
import { z } from 'zod';
import type { BridgeErrorShape } from '../../../shared/contract/errors.ts';
import type { EventName, Events } from '../../../shared/contract/events.ts';
import { stagedView } from '../../../shared/contract/staged.ts';
import { toBridgeError, type Staging } from '../../core/index.ts';
import { createLogger } from '../../core/log/logger.ts';
import { EVENT_CHANNEL, INVOKE_CHANNEL, isAppUrl, STAGE_CHANNEL } from './channels.ts';

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
  /** The active workspace's staging (throws when no workspace is open). */
  staging(): Pick<Staging, 'stageFile' | 'stageBytes'>;
}

/** What the preload sends to stage a file: the path of a File the OS gave, or a pasted file's bytes. */
const StagedSource = z.union([
  z.object({ path: z.string().min(1).max(4096) }).strict(),
  z.object({ filename: z.string().max(1000), bytes: z.instanceof(Uint8Array) }).strict(),
]);

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

function refuse(event: InvokeEventLike, problem: string, what: string): BridgeReply {
  // The URL is logged without its query and fragment: those may carry what the page typed.
  const url = event.senderFrame?.url.split(/[?#]/)[0] ?? null;
  log.warn('refused a bridge call', { problem, url, method: what.slice(0, 80) });
  return REFUSED;
}

/** Registers the bridge's invoke and staging handlers; returns a function that removes them. */
export function registerBridgeIpc(options: BridgeIpcOptions): () => void {
  options.ipcMain.handle(INVOKE_CHANNEL, async (event, method, input): Promise<BridgeReply> => {
    const problem = senderProblem(event, options.isAppWebContents);
    if (problem) return refuse(event, problem, String(method));
    if (typeof method !== 'string') {
      return {
        ok: false,
        error: { code: 'invalid_input', message: 'A call needs a method name', retryable: false },
      };
    }
    return options.dispatch(method, input);
  });
  options.ipcMain.handle(STAGE_CHANNEL, async (event, source): Promise<BridgeReply> => {
    const problem = senderProblem(event, options.isAppWebContents);
    if (problem) return refuse(event, problem, STAGE_CHANNEL);
    const parsed = StagedSource.safeParse(source);
    if (!parsed.success) {
      return {
        ok: false,
        error: {
          code: 'invalid_input',
          message: 'Files are staged from a dropped, picked or pasted file only',
          retryable: false,
        },
      };
    }
    try {
      const staging = options.staging();
      const file =
        'path' in parsed.data
          ? await staging.stageFile(parsed.data.path)
          : await staging.stageBytes(parsed.data.bytes, parsed.data.filename);
      return { ok: true, value: stagedView(file) };
    } catch (error) {
      return { ok: false, error: toBridgeError(error) };
    }
  });
  return () => {
    options.ipcMain.removeHandler(INVOKE_CHANNEL);
    options.ipcMain.removeHandler(STAGE_CHANNEL);
  };
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
