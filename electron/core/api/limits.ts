/** What the service accepts, where both the client and the hosts need it. */

/** API-GAPS: 100 MB per file. */
export const MAX_ATTACHMENT_BYTES = 100 * 1024 * 1024;
