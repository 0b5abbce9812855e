/**
 * What the Electron stand-in (electron-stand-in.ts) and the test exchange over the IPC channel of
 * `child_process.fork`. Types only: erasable TypeScript, no imports.
 */

/** One thing the app did, as the test sees it. */
export type ShellRecord =
  | { kind: 'ready' }
  | { kind: 'command-line-switch'; name: string; value: string | undefined }
  | { kind: 'scheme-privileges'; schemes: string[] }
  | { kind: 'protocol-handler'; scheme: string }
  | { kind: 'ipc-handler'; channel: string }
  | { kind: 'window'; id: number; options: unknown }
  | { kind: 'load-url'; id: number; url: string }
  | { kind: 'send'; id: number; channel: string; args: unknown[] }
  | { kind: 'notification'; title: string; body: string; silent: boolean }
  | { kind: 'session-hardened'; what: string }
  | { kind: 'web-contents-hardened'; id: number; what: string }
  | { kind: 'menu'; labels: string[] }
  | { kind: 'tray'; tooltip: string }
  | { kind: 'error-box'; title: string; content: string }
  | { kind: 'quit'; exitCode: number }
  | { kind: 'exit'; exitCode: number };

/** What the test sends. */
export type ShellCommand =
  { type: 'invoke'; id: number; channel: string; args: unknown[] } | { type: 'quit' };

/** What the stand-in sends. */
export type ShellMessage =
  | { type: 'record'; record: ShellRecord }
  | { type: 'invoked'; id: number; ok: true; value: unknown }
  | { type: 'invoked'; id: number; ok: false; error: string };
