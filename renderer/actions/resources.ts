/**
 * What the views may know of the bridge without calling the core: the addresses of app-owned
 * resources (attachments, staged files' previews) and which host serves them. Everything that
 * calls the core is an action in this folder.
 */
export { attachmentSrc, bridgeHost, isStagedAttachment, previewUrl, resourceUrls } from '../bridge/parley.ts';
