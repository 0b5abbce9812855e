/**
 * What the views may know of the bridge without calling the core: the addresses of app-owned
 * resources (attachments, their thumbnails, staged files' previews). Everything that
 * calls the core is an action in this folder.
 */
export { attachmentSrc, previewUrl, thumbnailSrc, viewerSrc } from '../bridge/parley.ts';
