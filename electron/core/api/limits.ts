/** What the service accepts, where both the client and the hosts need it: defined once, in shared/. */
export { MAX_ATTACHMENT_BYTES } from '../../../shared/contract/limits.ts';
