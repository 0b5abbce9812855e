import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import mime from 'mime-types';
import { ALLOWED_ATTACHMENT_TYPES, MAX_ATTACHMENT_BYTES } from '../api/outgoing.ts';
import type { LocalStore } from '../store/local-store.ts';
import type { StagedFile } from '../store/staged-files-repo.ts';

export class AttachmentRejected extends Error {
  readonly code = 'attachment_rejected';
}

/**
 * Files handed over by the UI live in the workspace's staging folder until their send succeeds or
 * is discarded; type and size are checked before a file is staged, with a reason.
 */
export class Staging {
  readonly #store: LocalStore;
  readonly #dir: string;
  readonly #maxBytes: number;

  constructor(store: LocalStore, dir: string, maxBytes = MAX_ATTACHMENT_BYTES) {
    this.#store = store;
    this.#dir = dir;
    this.#maxBytes = maxBytes;
  }

  /** Copies a file from disk (Electron: the dropped file's path). */
  async stageFile(path: string, filename = basename(path)): Promise<StagedFile> {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new AttachmentRejected(`"${filename}" cannot be read`);
    const checked = this.#check(filename, info.size);
    return this.#record(checked, (target) => copyFile(path, target));
  }

  /** Stores bytes (browser host uploads, pasted images). */
  async stageBytes(bytes: Uint8Array, filename: string): Promise<StagedFile> {
    const checked = this.#check(filename, bytes.byteLength);
    return this.#record(checked, (target) => writeFile(target, bytes));
  }

  get(id: string): StagedFile | undefined {
    return this.#store.staged.get(id);
  }

  async release(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      const file = this.#store.staged.get(id);
      if (!file) continue;
      await rm(file.path, { force: true });
      this.#store.staged.remove(id);
    }
  }

  #check(filename: string, size: number): { filename: string; mimeType: string; size: number } {
    const printable = [...basename(filename)].filter((ch) => ch.charCodeAt(0) >= 0x20).join('');
    const clean = printable.slice(0, 200) || 'attachment';
    const mimeType = mime.lookup(clean) || 'application/octet-stream';
    if (size === 0) throw new AttachmentRejected(`"${clean}" is empty`);
    if (size > this.#maxBytes)
      throw new AttachmentRejected(
        `"${clean}" is larger than ${Math.round(this.#maxBytes / 1024 / 1024)} MB`,
      );
    if (!ALLOWED_ATTACHMENT_TYPES.has(mimeType)) {
      throw new AttachmentRejected(
        `"${clean}" (${mimeType}) cannot be sent; send JPEG, PNG, GIF, HEIC, MP4, MOV, PDF, vCard or text`,
      );
    }
    return { filename: clean, mimeType, size };
  }

  async #record(
    file: { filename: string; mimeType: string; size: number },
    write: (target: string) => Promise<void>,
  ): Promise<StagedFile> {
    await mkdir(this.#dir, { recursive: true });
    const id = randomUUID();
    const path = join(this.#dir, id);
    await write(path);
    const staged: StagedFile = {
      id,
      path,
      filename: file.filename,
      mimeType: file.mimeType,
      size: file.size,
      createdAt: Date.now(),
    };
    this.#store.staged.add(staged);
    return staged;
  }
}
