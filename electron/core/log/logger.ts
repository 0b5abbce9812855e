/**
 * Named loggers with redaction built in. One line per entry:
 *
 *   2025-01-01T12:00:00.000Z INFO  api: request done method=GET path=/chats status=200 ms=12
 *
 * Every line passes through the redactor (see redact.ts) as a whole, after formatting, so a registered
 * secret is removed wherever it ended up: in the message, in a field, in an error message or cause.
 */
import { redactText, redactValue } from './redact.ts';

export { registerSecret, redactText } from './redact.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  readonly name: string;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

/** Receives finished (already redacted) lines, without a trailing newline. */
export type LogSink = (line: string, level: LogLevel) => void;

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

const stderrSink: LogSink = (line) => {
  process.stderr.write(`${line}\n`);
};

let sink: LogSink = stderrSink;
let levelOverride: LogLevel | undefined;

/** Replaces where lines go (tests capture them; the host may write a file). Returns a restore function. */
export function setLogSink(next: LogSink): () => void {
  const previous = sink;
  sink = next;
  return () => {
    sink = previous;
  };
}

/** Overrides PARLEY_LOG_LEVEL; `undefined` goes back to the environment. */
export function setLogLevel(level: LogLevel | undefined): void {
  levelOverride = level;
}

/** The level in force: the override, else PARLEY_LOG_LEVEL, else info. Read per call so tests can flip it. */
function currentLogLevel(): LogLevel {
  if (levelOverride) return levelOverride;
  const fromEnv = process.env.PARLEY_LOG_LEVEL?.trim().toLowerCase();
  return fromEnv && fromEnv in LEVELS ? (fromEnv as LogLevel) : 'info';
}

export function createLogger(name: string): Logger {
  const log = (level: LogLevel, message: string, fields?: LogFields): void => {
    if (LEVELS[level] < LEVELS[currentLogLevel()]) return;
    const line = redactText(formatLine(name, level, message, fields));
    try {
      sink(line, level);
    } catch {
      // Logging must never break the caller (a closed stderr, a throwing test sink).
    }
  };
  return {
    name,
    debug: (message, fields) => log('debug', message, fields),
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
  };
}

function formatLine(name: string, level: LogLevel, message: string, fields?: LogFields): string {
  const head = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${name}: ${message}`;
  if (!fields) return head;
  const safe = redactValue(fields) as Record<string, unknown>;
  const parts = Object.entries(safe)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  return parts.length > 0 ? `${head} ${parts.join(' ')}` : head;
}

/** Bare when unambiguous, JSON otherwise (quoted strings, objects), so lines stay grep-able and parseable. */
function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[\w.:/@+-]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(value) ?? String(value);
}

const dropLogger = createLogger('drop');

/**
 * Deliberate fire-and-forget: runs `promise` without awaiting it, and logs (never rethrows) a
 * rejection, so a forgotten failure is visible instead of an unhandled rejection.
 */
export function drop(promise: Promise<unknown>, logger: Logger = dropLogger): void {
  promise.catch((error: unknown) => {
    logger.error('background task failed', { error });
  });
}
