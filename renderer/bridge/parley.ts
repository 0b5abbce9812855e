/**
 * The renderer's one handle on the core: `parley.chats.list()`, `parley.on('messages.changed', …)`.
 * Nothing else in the renderer touches a transport.
 */
import { createParleyClient, type ParleyApi, type Transport } from '../../shared/contract/client.ts';
import type { ThumbnailScale } from '../../shared/contract/media.ts';
import { stagedIdOf, type StagedAttachment } from '../../shared/contract/staged.ts';
import type { Attachment } from '../../shared/domain.ts';
import { electronStageFile, electronTransport, type ResourceUrls, webSocketTransport } from './transports.ts';

function create(): {
  api: ParleyApi;
  transport: Transport;
  urls: ResourceUrls;
  host: 'electron' | 'browser';
  stageFile: (file: File) => Promise<StagedAttachment>;
} {
  const bridge = window.parleyBridge;
  if (bridge) {
    const transport = electronTransport(bridge);
    return {
      api: createParleyClient(transport),
      transport,
      urls: {
        attachment: (id) => `parley://attachments/${encodeURIComponent(id)}`,
        thumbnail: (id) => `parley://thumbnails/${encodeURIComponent(id)}`,
        staged: (id) => `parley://staged/${encodeURIComponent(id)}`,
      },
      host: 'electron',
      stageFile: async (file) => (await electronStageFile(bridge, file)) as StagedAttachment,
    };
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const transport = webSocketTransport(`${scheme}//${location.host}/bridge`);
  return {
    api: createParleyClient(transport),
    transport,
    urls: {
      attachment: (id) => `/attachments/${encodeURIComponent(id)}`,
      thumbnail: (id) => `/thumbnails/${encodeURIComponent(id)}`,
      staged: (id) => `/staged/${encodeURIComponent(id)}`,
    },
    host: 'browser',
    stageFile: uploadFile,
  };
}

/** The browser host stages only bytes, uploaded to its authenticated endpoint. */
async function uploadFile(file: File): Promise<StagedAttachment> {
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
  return body as StagedAttachment;
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
 * Stages files the user dropped, pasted or picked. Electron hands the File to the preload, which
 * reads its path (or, for a paste, its bytes); the browser host uploads the bytes. No path is ever
 * named by the page.
 */
export async function stageFiles(files: readonly File[]): Promise<StagedAttachment[]> {
  const staged = [];
  for (const file of files) staged.push(await created.stageFile(file));
  return staged;
}

/** A staged file's preview (the core's `parley-staged:<id>`) as this host serves it. */
export function previewUrl(coreUrl: string): string {
  const stagedId = stagedIdOf(coreUrl);
  return stagedId === null ? coreUrl : resourceUrls.staged(stagedId);
}

/**
 * Where an attachment of a message is served from: a staged file (a message the service has not
 * accepted yet) under its staged URL, a received or sent one under its attachment id.
 */
export function attachmentSrc(attachment: Pick<Attachment, 'id' | 'url'>): string {
  return servedAt(attachment, resourceUrls.attachment);
}

/**
 * What a bubble draws of an attachment: the core's display-size thumbnail of a received photo (the
 * viewer loads the original from attachmentSrc), a staged file as it is.
 */
export function thumbnailSrc(attachment: Pick<Attachment, 'id' | 'url'>, scale: ThumbnailScale = 1): string {
  return servedAt(attachment, (id) => `${resourceUrls.thumbnail(id)}?scale=${scale}`);
}

/**
 * What the viewer draws of a photo: the core's copy the size of the viewer's box for a screen of
 * that pixel ratio (the original only for Save); undefined for a staged file, which the viewer
 * shows as it is (the core makes copies of received files only).
 */
export function viewerSrc(
  attachment: Pick<Attachment, 'id' | 'url'>,
  scale: ThumbnailScale,
): string | undefined {
  if (isStagedAttachment(attachment)) return undefined;
  return `${resourceUrls.thumbnail(attachment.id)}?size=viewer&scale=${scale}`;
}

function servedAt(attachment: Pick<Attachment, 'id' | 'url'>, byId: (id: string) => string): string {
  const stagedId = stagedIdOf(attachment.url);
  return stagedId === null ? byId(attachment.id) : resourceUrls.staged(stagedId);
}

/** Whether an attachment is still only a staged file of this app (nothing to open or save yet). */
export function isStagedAttachment(attachment: Pick<Attachment, 'url'>): boolean {
  return stagedIdOf(attachment.url) !== null;
}
