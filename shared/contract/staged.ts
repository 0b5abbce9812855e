/**
 * A file staged for sending, as both sides name it. The core records a staged file in a message (the
 * optimistic copy, until the service's copy replaces it) as an attachment whose URL is the resource
 * `parley-staged:<id>` and whose id is `staged:<id>`; drafts show it through the same resource.
 * Each host serves the resource from its own URL (`/staged/<id>`, `parley://staged/<id>`), so the
 * renderer maps it with `stagedIdOf` and never asks for a staged file under an attachment's id.
 */

/** What the UI is shown of a staged file. */
export interface StagedAttachment {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
  /** The staged resource (`parley-staged:<id>`); the renderer maps it to its host's URL. */
  previewUrl: string;
}

const RESOURCE = 'parley-staged:';
const ATTACHMENT_ID = 'staged:';

/** The resource a staged file is known by: `parley-staged:<id>`. */
export function stagedResource(stagedId: string): string {
  return `${RESOURCE}${stagedId}`;
}

/** The id a staged file has as an attachment of a message not yet accepted by the service. */
export function stagedAttachmentId(stagedId: string): string {
  return `${ATTACHMENT_ID}${stagedId}`;
}

/** The staged file's id a resource URL names, or null when it names none (a received attachment). */
export function stagedIdOf(url: string): string | null {
  return url.startsWith(RESOURCE) && url.length > RESOURCE.length ? url.slice(RESOURCE.length) : null;
}

/** The staged-file view of a file the core staged. */
export function stagedView(file: {
  id: string;
  filename: string;
  mimeType: string;
  size: number;
}): StagedAttachment {
  return {
    id: file.id,
    filename: file.filename,
    mimeType: file.mimeType,
    size: file.size,
    previewUrl: stagedResource(file.id),
  };
}
