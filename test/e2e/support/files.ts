/**
 * Files as an agent hands them to Parley: dropped from the desktop onto the conversation, or pasted
 * from the clipboard. Playwright cannot drag real files from outside the page, so these build the
 * same DataTransfer a browser would and dispatch the same events.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { Locator } from '@playwright/test';

export interface FileSpec {
  name: string;
  mimeType: string;
  bytes: Buffer;
}

/** A real PNG of one colour (`width`×`height`), so the timeline has something to draw. */
export function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function serializable(files: readonly FileSpec[]) {
  return files.map((f) => ({ name: f.name, mimeType: f.mimeType, base64: f.bytes.toString('base64') }));
}

/** Drags files over `target` (the drop overlay shows) and drops them. */
export async function dropFiles(
  target: Locator,
  files: readonly FileSpec[],
  whileOver?: () => Promise<void>,
): Promise<void> {
  const dataTransfer = await target.page().evaluateHandle((specs) => {
    const transfer = new DataTransfer();
    for (const spec of specs) {
      const bytes = Uint8Array.from(atob(spec.base64), (ch) => ch.charCodeAt(0));
      transfer.items.add(new File([bytes], spec.name, { type: spec.mimeType }));
    }
    return transfer;
  }, serializable(files));
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await whileOver?.();
  await target.dispatchEvent('drop', { dataTransfer });
  await dataTransfer.dispose();
}

/** Pastes files into a text field, as Ctrl+V does with an image on the clipboard. */
export async function pasteFiles(field: Locator, files: readonly FileSpec[]): Promise<void> {
  await field.focus();
  await field.evaluate((element, specs) => {
    const transfer = new DataTransfer();
    for (const spec of specs) {
      const bytes = Uint8Array.from(atob(spec.base64), (ch) => ch.charCodeAt(0));
      transfer.items.add(new File([bytes], spec.name, { type: spec.mimeType }));
    }
    element.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
    );
  }, serializable(files));
}
