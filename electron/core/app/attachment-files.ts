import { join } from 'node:path';
import { stagedIdOf } from '../../../shared/contract/staged.ts';
import type { ThumbnailScale, ThumbnailSize } from '../../../shared/contract/media.ts';
import { isPartnerApiError } from '../api/errors.ts';
import {
  AttachmentCache,
  type CachedAttachmentRow,
  type LocalAttachment,
} from '../attachments/attachment-cache.ts';
import type { ServiceSession } from '../session.ts';
import { UserFacingError } from './errors.ts';

/** A file the agent staged in a session; undefined when there is none. */
function stagedFileOf(session: ServiceSession, stagedId: string): LocalAttachment | undefined {
  const staged = session.staging.get(stagedId);
  return staged ? { path: staged.path, mimeType: staged.mimeType, filename: staged.filename } : undefined;
}

/**
 * The open workspace's attachments as local files: a received one is downloaded once from the
 * service into the workspace's cache (made on first use, in `attachments/` of its data folder), then
 * served from disk; a staged one is the file the agent chose.
 */
export class AttachmentFiles {
  readonly #dataDirFor: (workspaceId: string) => string;
  /** The open workspace's session, when one is open. */
  readonly #openSession: () => { session: ServiceSession; workspaceId: string } | undefined;
  #open: { workspaceId: string; cache: AttachmentCache } | undefined;

  constructor(
    dataDirFor: (workspaceId: string) => string,
    openSession: () => { session: ServiceSession; workspaceId: string } | undefined,
  ) {
    this.#dataDirFor = dataDirFor;
    this.#openSession = openSession;
  }

  /** A file the agent staged in the open workspace; undefined when there is none (or no workspace). */
  staged(stagedId: string): LocalAttachment | undefined {
    const open = this.#openSession();
    return open ? stagedFileOf(open.session, stagedId) : undefined;
  }

  /**
   * The attachment's file, or what the timeline or the viewer draws for it: a copy the size of its
   * box for a screen of that pixel ratio, made once by the cache (the file itself when it has none).
   */
  async find(
    which: 'file' | 'thumbnail',
    attachmentId: string,
    scale: ThumbnailScale = 2,
    size: ThumbnailSize = 'bubble',
  ): Promise<LocalAttachment | undefined> {
    const open = this.#openSession();
    if (!open) return undefined;
    return this.#cached(open.session, open.workspaceId, attachmentId, (cache, row) =>
      which === 'file' ? cache.file(row) : cache.thumbnail(row, scale, size),
    );
  }

  async #cached(
    session: ServiceSession,
    workspaceId: string,
    attachmentId: string,
    pick: (cache: AttachmentCache, row: CachedAttachmentRow) => Promise<LocalAttachment>,
  ): Promise<LocalAttachment | undefined> {
    const row = session.store.messages.attachment(attachmentId);
    if (!row) return undefined;
    const stagedId = stagedIdOf(row.url);
    if (stagedId) return stagedFileOf(session, stagedId);
    if (this.#open?.workspaceId !== workspaceId) {
      const dir = join(this.#dataDirFor(workspaceId), 'attachments');
      this.#open = { workspaceId, cache: new AttachmentCache(dir, downloadThrough(session)) };
    }
    return pick(this.#open.cache, row);
  }
}

/** Downloads through the session's client: retried, budgeted and heard by reachability. */
function downloadThrough(session: ServiceSession) {
  return (row: CachedAttachmentRow, to: string) =>
    session.messaging.downloadAttachment(row, to, {}).catch((error: unknown) => {
      if (isPartnerApiError(error) && error.status > 0)
        throw new UserFacingError(
          'not_found',
          `The attachment could not be downloaded (HTTP ${error.status})`,
          {
            retryable: true,
          },
        );
      throw error;
    });
}
