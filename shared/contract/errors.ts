/**
 * The one error shape that crosses the bridge: enough for the UI to show a precise message and to
 * offer "try again" when it helps. Never a stack trace, a token or a secret.
 */
export interface BridgeErrorShape {
  /** Stable, machine-readable: e.g. `invalid_input`, `unauthorized`, `network`, `not_found`. */
  code: string;
  /** A sentence for the user. */
  message: string;
  /** Whether repeating the same call may succeed (offline, rate-limited, server trouble). */
  retryable: boolean;
  /** The input field at fault (`baseUrl`, `recipients.0`), when one is. */
  field?: string;
}

export class BridgeError extends Error implements BridgeErrorShape {
  readonly code: string;
  readonly retryable: boolean;
  readonly field: string | undefined;

  constructor(shape: BridgeErrorShape) {
    super(shape.message);
    this.name = 'BridgeError';
    this.code = shape.code;
    this.retryable = shape.retryable;
    this.field = shape.field;
  }

  toJSON(): BridgeErrorShape {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.field ? { field: this.field } : {}),
    };
  }
}

export function isBridgeErrorShape(value: unknown): value is BridgeErrorShape {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.message === 'string' && typeof v.retryable === 'boolean';
}

/**
 * Local disk trouble, each its own code so the UI can say what to do: the disk is full, the data
 * folder is read-only or not ours to write, or the disk failed to read or write.
 */
export const STORAGE_ERROR_CODES = [
  'disk_full',
  'storage_read_only',
  'storage_permission',
  'storage_io',
] as const;
export type StorageErrorCode = (typeof STORAGE_ERROR_CODES)[number];

/** Whether the workspace's store can write: `problem` is null again once a write succeeds. */
export interface StorageStatus {
  problem: { code: StorageErrorCode; message: string } | null;
}
