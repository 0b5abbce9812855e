/** Saving a response body to a file: whole or not at all, and a disk fault told apart from the network's. */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The file could not be written (full disk, no permission): not the network's fault, not retried. */
export class LocalFileError extends Error {
  constructor(cause: unknown) {
    super('could not write the downloaded file', { cause });
  }
}

/** Streams a body into `path` through a temporary file, so `path` only ever holds a whole file. */
export async function saveBody(body: Readable, path: string): Promise<void> {
  // Its own partial file: two downloads of the same attachment at once must not interleave.
  const partial = `${path}.${randomUUID()}.part`;
  const file = createWriteStream(partial);
  try {
    await pipeline(body, file);
  } catch (thrown) {
    await rm(partial, { force: true });
    throw file.errored ? new LocalFileError(file.errored) : thrown;
  }
  await rename(partial, path).catch((thrown: unknown) => {
    throw new LocalFileError(thrown);
  });
}
