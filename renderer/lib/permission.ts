/**
 * Whether an agent may do something, and why not when they may not. A control the workspace can do
 * but this message or chat cannot is disabled with the reason as its title; a control the workspace
 * cannot do at all is not shown (capabilities.ts). The rules mirror the core's own checks
 * (electron/core/app/handlers.ts), so the UI refuses with the same reason the core would.
 */
export type Permission = { allowed: true } | { allowed: false; reason: string };

export const ALLOWED: Permission = { allowed: true };

export function denied(reason: string): Permission {
  return { allowed: false, reason };
}
