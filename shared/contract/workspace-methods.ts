/**
 * Workspaces: the services connected, joined or the demo; which one is active.
 * One part of the bridge's table: shared/contract/methods.ts assembles them.
 */
import { z } from 'zod';
import type { ApiVersionCheck, WorkspaceInfo, WorkspaceList } from './views.ts';
import { none, method } from './method-fields.ts';

export const workspaceMethods = {
  // ── workspaces ────────────────────────────────────────────────────────────────────────────
  /** Lists workspaces and which is active. Never fails. */
  'workspaces.list': method(none)<WorkspaceList>(),
  /**
   * Tries a token on V2 and V3 without connecting anything, so the agent sees which versions work
   * before choosing. Fails like `add` (V2 must work: contacts always go through it).
   */
  'workspaces.probe': method(
    z
      .object({
        baseUrl: z.string().trim().min(1).max(2048),
        token: z.string().min(1).max(4096),
        tokenHeader: z.string().trim().max(100).optional(),
      })
      .strict(),
  )<ApiVersionCheck>(),
  /**
   * Connects a workspace: validates with a cheap authenticated call first, then keeps the token in
   * the OS keychain. Fails with `unauthorized` (token refused), `network` (unreachable), `tls`,
   * `not_found`/`invalid_response` (not a Partner Messaging Service at that URL), `invalid_input`.
   */
  'workspaces.add': method(
    z
      .object({
        name: z.string().trim().min(1).max(80),
        baseUrl: z.string().trim().min(1).max(2048),
        token: z.string().min(1).max(4096),
        tokenHeader: z.string().trim().max(100).optional(),
        /** Default: V3 when the token works there, else V2. */
        apiVersion: z.enum(['v2', 'v3']).optional(),
      })
      .strict(),
  )<WorkspaceInfo>(),
  /**
   * Joins the organization a team's relay serves, with the join code from `npm run relay -- agent
   * add` (it carries the relay's address; `relayUrl` only when this desktop reaches the relay by
   * another). The agent's credentials go to the OS keychain; no token comes to this desktop. The new
   * workspace becomes active, like `add`. Fails with `invalid_input` (field `joinCode`: not a join
   * code, or a damaged one; `relayUrl`), `network` (the relay cannot be reached), `unauthorized`
   * (the relay refused the credentials: the agent was removed).
   */
  'workspaces.join': method(
    z
      .object({
        joinCode: z.string().trim().min(1).max(4096),
        relayUrl: z.string().trim().max(2048).optional(),
        name: z.string().trim().max(80).optional(),
      })
      .strict(),
  )<WorkspaceInfo>(),
  /**
   * Moves a workspace to another API version after checking the token works there; its history,
   * drafts, pins and read state stay. Answers once the active workspace's session has reopened on
   * that version. Fails with `not_found`, `invalid_input` (field `apiVersion`:
   * the service refuses that version), and the failures of `add`.
   */
  'workspaces.setApiVersion': method(
    z.object({ id: z.string().min(1).max(64), apiVersion: z.enum(['v2', 'v3']) }).strict(),
  )<WorkspaceInfo>(),
  /** Makes a workspace active (its inbox, its sync). Fails with `not_found`. */
  'workspaces.switch': method(z.object({ id: z.string().min(1).max(64) }).strict())<WorkspaceList>(),
  /** Renames a workspace. Fails with `not_found`, `invalid_input`. */
  'workspaces.rename': method(
    z.object({ id: z.string().min(1).max(64), name: z.string().trim().min(1).max(80) }).strict(),
  )<WorkspaceInfo>(),
  /** Replaces a workspace's token after validating it. Same failures as `add`. */
  'workspaces.updateToken': method(
    z.object({ id: z.string().min(1).max(64), token: z.string().min(1).max(4096) }).strict(),
  )<WorkspaceInfo>(),
  /** Removes a workspace, its keychain entries and its local data. The demo returns when none remain. */
  'workspaces.remove': method(z.object({ id: z.string().min(1).max(64) }).strict())<WorkspaceList>(),
} as const;
