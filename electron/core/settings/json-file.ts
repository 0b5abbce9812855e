// Small JSON documents in the data folder (settings.json, workspaces.json): validated reads that
// keep a bad file aside instead of crashing or silently overwriting it, and atomic writes, so a crash
// or power loss mid-write leaves either the old document or the new one, never half of each.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

export type JsonFileRead<T> =
  | { kind: 'missing' }
  | { kind: 'ok'; value: T }
  /** The file was unreadable as JSON or did not validate; it now lives at `keptAs`. */
  | { kind: 'corrupt'; keptAs: string; reason: string };

/**
 * Reads and validates a JSON file. `parse` throws on invalid content. A corrupt file is renamed to
 * `<path>.corrupt-<timestamp>` so the user (or a bug report) still has it and the next write does
 * not destroy it. Other I/O errors (permissions, a folder in the way) are thrown.
 */
export function readJsonFile<T>(
  path: string,
  parse: (raw: unknown) => T,
  now: Date = new Date(),
): JsonFileRead<T> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw error;
  }
  try {
    return { kind: 'ok', value: parse(JSON.parse(text)) };
  } catch (error) {
    // Colons are not allowed in Windows file names.
    const keptAs = `${path}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(path, keptAs);
    return { kind: 'corrupt', keptAs, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Writes `value` as JSON to a temp file beside `path`, flushes it, then renames it over `path`. */
export function writeJsonFileAtomic(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // 0o600: these files name the user's workspaces and servers; no one else needs to read them.
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
