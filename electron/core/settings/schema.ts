// The one description of Parley's app settings. Both hosts persist exactly this shape: the browser
// host through FileSettingsStore, the Electron host through electron-store (which gets
// `settingsDefaults()` as its defaults and `normalizeSettings` to validate what it reads back).
// Secrets never live here: tokens and webhook secrets belong to the vault.
import { z } from 'zod';

/** Workspace ids are random and url-safe; they also name folders, so nothing else is allowed. */
export const workspaceIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not a workspace id');

const windowSchema = z.object({
  /** Last normal (not maximized) bounds; x/y absent means "let the OS place the window". */
  bounds: z
    .object({
      x: z.number().int().optional(),
      y: z.number().int().optional(),
      width: z.number().int().min(400).max(16_384),
      height: z.number().int().min(300).max(16_384),
    })
    .prefault({ width: 1200, height: 800 }),
  maximized: z.boolean().default(false),
});

const notificationsSchema = z.object({
  enabled: z.boolean().default(true),
  /** Show the message text in the notification (off hides customer content on a shared screen). */
  showPreview: z.boolean().default(true),
  sound: z.boolean().default(true),
});

const tunnelProviderSchema = z.enum(['direct', 'ngrok', 'cloudflare', 'custom']);

/** How one workspace stays in sync; absent entries mean "all defaults". */
export const workspaceSyncSchema = z.object({
  /** Poll interval while a chat is open. */
  pollIntervalMs: z.number().int().min(1_000).max(60_000).default(3_000),
  /** Poll interval for the chat list and background chats (and everything when no chat is open). */
  backgroundPollIntervalMs: z.number().int().min(5_000).max(3_600_000).default(30_000),
  webhooksEnabled: z.boolean().default(false),
  tunnel: z
    .object({
      provider: tunnelProviderSchema.default('direct'),
      /** Used when provider is 'custom': the public https URL that forwards to the local listener. */
      customPublicUrl: z.url({ protocol: /^https?$/ }).optional(),
    })
    .prefault({}),
  /**
   * Where the agent was in this workspace, so a reload or restart returns there: the open chat and
   * the message at the top of its view (null: at the newest). Absent or null: no chat open.
   */
  place: z
    .object({ chatId: z.number().int().safe(), topKey: z.string().min(1).max(100).nullable() })
    .nullable()
    .optional(),
});

export const settingsSchema = z.object({
  window: windowSchema.prefault({}),
  notifications: notificationsSchema.prefault({}),
  theme: z.enum(['light', 'dark', 'system']).default('system'),
  /** 'automatic' sends typing indicators while the agent types; 'manual' only on request. */
  typingMode: z.enum(['automatic', 'manual']).default('automatic'),
  /** null until the workspace registry picks one (it always does on start). */
  activeWorkspaceId: workspaceIdSchema.nullable().default(null),
  /** Sync options by workspace id. */
  workspaces: z.record(workspaceIdSchema, workspaceSyncSchema.prefault({})).default({}),
});

export type Settings = z.infer<typeof settingsSchema>;
export type WindowSettings = Settings['window'];
export type NotificationSettings = Settings['notifications'];
export type WorkspaceSyncSettings = z.infer<typeof workspaceSyncSchema>;
export type TunnelProvider = z.infer<typeof tunnelProviderSchema>;

/**
 * A change to the settings: each top-level group is merged one level deep (so
 * `{ notifications: { sound: false } }` keeps the other notification options); under `workspaces`,
 * each entry is merged the same way and `null` forgets that workspace's options.
 */
export interface SettingsPatch {
  window?: { bounds?: WindowSettings['bounds']; maximized?: boolean };
  notifications?: Partial<NotificationSettings>;
  theme?: Settings['theme'];
  typingMode?: Settings['typingMode'];
  activeWorkspaceId?: string | null;
  workspaces?: Record<string, WorkspacePatch | null>;
}

export interface WorkspacePatch {
  pollIntervalMs?: number;
  backgroundPollIntervalMs?: number;
  webhooksEnabled?: boolean;
  tunnel?: Partial<WorkspaceSyncSettings['tunnel']>;
  place?: WorkspaceSyncSettings['place'];
}

/** A fresh copy of the defaults (electron-store's `defaults`). */
export function settingsDefaults(): Settings {
  return settingsSchema.parse({});
}

/** The sync options of a workspace, defaults filled in when it has none stored. */
export function workspaceSyncOf(settings: Settings, workspaceId: string): WorkspaceSyncSettings {
  return settings.workspaces[workspaceId] ?? workspaceSyncSchema.parse({});
}

/** Thrown when a stored document or a patch does not fit the schema. */
export class InvalidSettingsError extends Error {
  override name = 'InvalidSettingsError';
  readonly issues: readonly string[];
  constructor(issues: readonly string[], options?: { cause?: unknown }) {
    super(`Invalid settings: ${issues.join('; ')}`, options);
    this.issues = issues;
  }
}

/**
 * Validates anything read back from disk (or electron-store) and fills in defaults; unknown keys
 * are dropped. Throws InvalidSettingsError.
 */
export function normalizeSettings(input: unknown): Settings {
  const result = settingsSchema.safeParse(input);
  if (!result.success) {
    throw new InvalidSettingsError(
      result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
      { cause: result.error },
    );
  }
  return result.data;
}

/** Applies a patch (see SettingsPatch) and validates the result; throws InvalidSettingsError. */
export function applySettingsPatch(current: Settings, patch: SettingsPatch): Settings {
  const workspaces: Record<string, unknown> = { ...current.workspaces };
  for (const [id, change] of Object.entries(patch.workspaces ?? {})) {
    if (change === null) {
      delete workspaces[id];
      continue;
    }
    const before = current.workspaces[id] ?? workspaceSyncSchema.parse({});
    workspaces[id] = {
      ...before,
      ...defined(change),
      tunnel: { ...before.tunnel, ...defined(change.tunnel) },
    };
  }
  return normalizeSettings({
    ...current,
    ...defined(patch),
    window: { ...current.window, ...defined(patch.window) },
    notifications: { ...current.notifications, ...defined(patch.notifications) },
    workspaces,
  });
}

/** Drops keys whose value is undefined, so `{ theme: undefined }` leaves the theme alone. */
function defined<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
