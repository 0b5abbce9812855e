/**
 * Opening and saving a received file. The core fetches the service's copy the first time it is
 * asked for; when it cannot, the agent is told why in the app (the file card says so and offers to
 * try again), never shown the host's error document in a tab or a download.
 */
import { isBridgeErrorShape } from '../../shared/contract/errors.ts';
import { inlineMediaType } from '../../shared/contract/media.ts';
import type { Attachment } from '../../shared/domain.ts';
import { bridgeHost, isStagedAttachment, parley, resourceUrls } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';

/** Why a file could not be opened, in the core's words (thrown by `openAttachment`). */
export class AttachmentUnavailable extends Error {}

/**
 * Electron opens or saves through the host; the browser downloads from the app-owned URL. Only a
 * picture or video opens in a tab of its own: anything else (SVG, HTML, script, text…) is always a
 * download, so "Open" never shows a customer's document in the app's origin. In the browser the
 * file is asked for first (the host then has it on disk, so the download that follows is local):
 * a failure rejects with the reason instead of opening the host's error.
 */
export async function openAttachment(attachment: Attachment, save: boolean): Promise<void> {
  if (isStagedAttachment(attachment)) return;
  if (bridgeHost === 'electron') {
    await parley.attachments.open({ attachmentId: attachment.id, save }).catch((error: unknown) => {
      throw new AttachmentUnavailable(errorText(error));
    });
    return;
  }
  const url = resourceUrls.attachment(attachment.id);
  await ensureFetchable(url);
  const link = document.createElement('a');
  link.href = url;
  if (save || !inlineMediaType(attachment.mimeType)) link.download = attachment.filename;
  else {
    link.target = '_blank';
    link.rel = 'noopener';
  }
  link.click();
}

/** Asks the host for the file and lets the bytes go (only its answer matters here). */
async function ensureFetchable(url: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new AttachmentUnavailable('Parley could not be reached. Check that the app is still running.');
  }
  if (response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  // The host answers a failure with the core's error as JSON ({code, message, retryable}).
  const body = (await response.json().catch(() => null)) as unknown;
  throw new AttachmentUnavailable(
    isBridgeErrorShape(body)
      ? body.message
      : response.status === 404
        ? 'The file is no longer in this workspace.'
        : `The app could not serve the file (HTTP ${response.status}).`,
  );
}
