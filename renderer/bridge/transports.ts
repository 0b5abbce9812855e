/**
 * The two ways the renderer reaches the core. Electron: the preload's `window.parleyBridge`
 * (contextBridge). Browser host: a WebSocket to the page's own origin, authenticated by the
 * session cookie the host set. Both carry the same contract.
 */
import type { Transport } from '../../shared/contract/client.ts';
import type { BridgeErrorShape } from '../../shared/contract/errors.ts';
import { MAX_BRIDGE_FRAME_BYTES } from '../../shared/contract/limits.ts';
import { formatBytes } from '../lib/format.ts';

export interface ElectronBridge {
  invoke(method: string, input: unknown): Promise<unknown>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
  /**
   * Stages a file the user dropped, picked or pasted. The preload reads the File's path itself
   * (webUtils.getPathForFile), so the page never handles a path; answers like `invoke`.
   */
  stageFile(file: File): Promise<unknown>;
}

declare global {
  interface Window {
    parleyBridge?: ElectronBridge;
  }
}

/** Where app-owned resources (received attachments, staged previews) are served from. */
export interface ResourceUrls {
  attachment(id: string): string;
  /** What the timeline draws of an attachment: its display-size thumbnail (or the file itself). */
  thumbnail(id: string): string;
  staged(id: string): string;
}

/** `{ok, value}` → value; `{ok: false, error}` → throws the error shape. */
function unwrap(reply: unknown): unknown {
  const result = reply as { ok: boolean; value?: unknown; error?: unknown };
  if (!result.ok) throw result.error;
  return result.value;
}

/** Stages one file through the preload (Electron). */
export async function electronStageFile(bridge: ElectronBridge, file: File): Promise<unknown> {
  return unwrap(await bridge.stageFile(file));
}

export function electronTransport(bridge: ElectronBridge): Transport {
  return {
    invoke: async (method, input) => unwrap(await bridge.invoke(method, input)),
    subscribe: (listener) => bridge.subscribe(listener),
  };
}

/**
 * A call the host could not take, refused here before it is sent: the host's WebSocket closes the
 * whole connection on a frame over its limit (and with it every other call in flight).
 */
function oversizeRefusal(frame: string): BridgeErrorShape | null {
  // A UTF-16 unit is 1 to 3 bytes of UTF-8 (a pair of them 4): measure only when it could matter.
  if (frame.length * 3 <= MAX_BRIDGE_FRAME_BYTES) return null;
  const bytes = new TextEncoder().encode(frame).byteLength;
  if (bytes <= MAX_BRIDGE_FRAME_BYTES) return null;
  return {
    code: 'invalid_input',
    message: `This is too large to hand to Parley in one go: ${formatBytes(bytes)}, the limit is ${formatBytes(MAX_BRIDGE_FRAME_BYTES)}.`,
    retryable: false,
  };
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** The socket the call went out on; undefined while it waits in the queue for a connection. */
  sentOn: WebSocket | undefined;
}

/**
 * JSON over one WebSocket: requests `{id, method, input}`, replies `{id, ok, value | error}`,
 * pushes `{event, payload}`. Reconnects with backoff; calls made while disconnected wait for it.
 */
export function webSocketTransport(url: string): Transport & { readonly connected: boolean } {
  const pending = new Map<number, Pending>();
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const queue: Array<{ id: number; frame: string }> = [];
  let nextId = 1;
  let socket: WebSocket | undefined;
  let connected = false;
  let retry = 0;

  const connect = (): void => {
    socket = new WebSocket(url);
    socket.addEventListener('open', () => {
      connected = true;
      retry = 0;
      for (const { id, frame } of queue.splice(0)) {
        const waiting = pending.get(id);
        if (!waiting || !socket) continue;
        waiting.sentOn = socket;
        socket.send(frame);
      }
      for (const listener of listeners) listener('bridge.connected', null);
    });
    socket.addEventListener('message', (message) => {
      const frame = JSON.parse(String(message.data)) as {
        id?: number;
        ok?: boolean;
        value?: unknown;
        error?: unknown;
        event?: string;
        payload?: unknown;
      };
      if (frame.event) {
        for (const listener of listeners) listener(frame.event, frame.payload);
        return;
      }
      const waiting = frame.id === undefined ? undefined : pending.get(frame.id);
      if (!waiting) return;
      pending.delete(frame.id as number);
      if (frame.ok) waiting.resolve(frame.value);
      else waiting.reject(frame.error);
    });
    const current = socket;
    socket.addEventListener('close', () => {
      const wasConnected = connected;
      connected = false;
      if (wasConnected) for (const listener of listeners) listener('bridge.disconnected', null);
      // Calls in flight on this socket are lost with it: fail them so the UI can say so. Calls still
      // queued (made while disconnected) keep waiting for the next connection.
      for (const [id, waiting] of pending) {
        if (waiting.sentOn !== current) continue;
        waiting.reject({ code: 'disconnected', message: 'Lost the connection to Parley', retryable: true });
        pending.delete(id);
      }
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    });
  };
  connect();

  return {
    get connected() {
      return connected;
    },
    invoke(method, input) {
      const id = nextId++;
      const frame = JSON.stringify({ id, method, input });
      const refusal = oversizeRefusal(frame);
      if (refusal) return Promise.reject(refusal);
      return new Promise((resolve, reject) => {
        if (connected && socket) {
          pending.set(id, { resolve, reject, sentOn: socket });
          socket.send(frame);
        } else {
          pending.set(id, { resolve, reject, sentOn: undefined });
          queue.push({ id, frame });
        }
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
