/**
 * The input limits both sides hold to, defined once: the core's schemas refuse past them, and the
 * renderer shows them beside the field and refuses before sending, so nothing is ever cut silently.
 */

/**
 * The largest bridge frame (one call as JSON text, in UTF-8 bytes) the browser host accepts: its
 * WebSocket's `maxPayload`. `ws` answers a larger frame by closing the connection (1009), losing
 * every call in flight on it, so the page's transport refuses such a call before sending it.
 */
export const MAX_BRIDGE_FRAME_BYTES = 4 * 1024 * 1024;

/** A message's text (a send, an edit, a held or quick reply), in characters. */
export const MAX_MESSAGE_CHARS = 20_000;

/** A private note, in characters (after trimming). */
export const MAX_NOTE_CHARS = 10_000;

/** A canned reply's title, text and group, in characters. */
export const MAX_CANNED_TITLE_CHARS = 120;
export const MAX_CANNED_BODY_CHARS = 5000;
export const MAX_CANNED_GROUP_CHARS = 60;

/**
 * A canned-reply set file to import, in bytes as it is on disk (its text is never longer in
 * characters than in bytes). It leaves room under the frame limit for the escaping JSON adds.
 */
export const MAX_CANNED_FILE_BYTES = 3.5 * 1024 * 1024;

/** The agent's name (fills `{agent_name}`), in characters. */
export const MAX_AGENT_NAME_CHARS = 100;

/** A file the service takes as an attachment, in bytes (API-GAPS: 100 MB per file). */
export const MAX_ATTACHMENT_BYTES = 100 * 1024 * 1024;

/** Parley's own cap on the files of one message (the service names none): a reviewable message. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 20;

/** A new group conversation's name, in characters. */
export const MAX_GROUP_NAME_CHARS = 100;
