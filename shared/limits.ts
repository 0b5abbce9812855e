/** What the service accepts for attachments, where the core, the hosts and the renderer all need it. */

/** API-GAPS: 100 MB per file. */
export const MAX_ATTACHMENT_BYTES = 100 * 1024 * 1024;
/** Parley's own cap on the files of one message (the service names none): a reviewable message. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 20;
