export * from './errors.ts';
export * from './events.ts';
export * from './methods.ts';
export * from './views.ts';
export * from './team-views.ts';
export { stagedAttachmentId, stagedIdOf, stagedResource, stagedView } from './staged.ts';
export * from './media.ts';
export { createParleyClient, type ParleyApi, type Transport } from './client.ts';
