/**
 * The renderer's one handle on the core: `parley.chats.list()`, `parley.on('messages.changed', …)`.
 * Nothing else in the renderer touches a transport.
 */
import { createParleyClient, type ParleyApi, type Transport } from '../../shared/contract/client.ts';
import { electronTransport, type ResourceUrls, webSocketTransport } from './transports.ts';

function create(): {
  api: ParleyApi;
  transport: Transport;
  urls: ResourceUrls;
  host: 'electron' | 'browser';
  pathForFile?: (file: File) => string;
} {
  const bridge = window.parleyBridge;
  if (bridge) {
    const transport = electronTransport(bridge);
    return {
      api: createParleyClient(transport),
      transport,
      urls: {
        attachment: (id) => `parley://attachments/${encodeURIComponent(id)}`,
        staged: (id) => `parley://staged/${encodeURIComponent(id)}`,
      },
      host: 'electron',
      pathForFile: (file) => bridge.pathForFile(file),
    };
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const transport = webSocketTransport(`${scheme}//${location.host}/bridge`);
  return {
    api: createParleyClient(transport),
    transport,
    urls: {
      attachment: (id) => `/attachments/${encodeURIComponent(id)}`,
      staged: (id) => `/staged/${encodeURIComponent(id)}`,
    },
    host: 'browser',
  };
}

const created = create();

export const parley: ParleyApi = created.api;
export const resourceUrls: ResourceUrls = created.urls;
export const bridgeHost = created.host;

/**
 * The link to the core itself going down and coming back (the browser host's WebSocket emits the
 * `bridge.connected` / `bridge.disconnected` pseudo-events; Electron's IPC never drops). After a
 * reconnect, events sent meanwhile are lost, so listeners reload what they show.
 */
export function onBridgeConnection(listener: (connected: boolean) => void): () => void {
  return created.transport.subscribe((event) => {
    if (event === 'bridge.connected') listener(true);
    else if (event === 'bridge.disconnected') listener(false);
  });
}

/**
 * Stages files the user dropped, pasted or picked. Electron hands the core the file's path;
 * the browser host uploads the bytes to its authenticated endpoint.
 */
export async function stageFiles(
  files: readonly File[],
): Promise<Array<Awaited<ReturnType<ParleyApi['attachments']['stagePath']>>>> {
  const staged = [];
  for (const file of files) {
    if (created.pathForFile) {
      staged.push(await parley.attachments.stagePath({ path: created.pathForFile(file) }));
      continue;
    }
    const form = new FormData();
    form.append('file', file, file.name);
    const response = await fetch('/upload', {
      method: 'POST',
      body: form,
      headers: { 'x-parley-upload': '1' },
      credentials: 'same-origin',
    });
    const body = (await response.json().catch(() => null)) as unknown;
    if (!response.ok)
      throw body ?? { code: 'upload_failed', message: `Upload failed (${response.status})`, retryable: true };
    staged.push(body as Awaited<ReturnType<ParleyApi['attachments']['stagePath']>>);
  }
  return staged;
}

/** A staged file's preview URL from the core (`parley-staged:<id>`) as this host serves it. */
export function previewUrl(coreUrl: string): string {
  return coreUrl.startsWith('parley-staged:')
    ? resourceUrls.staged(coreUrl.slice('parley-staged:'.length))
    : coreUrl;
}
