/**
 * The relay's secrets on disk (the service's token, nats credentials, the TLS key, the webhook
 * secret): each in a file only its owner may read. One wider is refused with the fix, in words.
 */
import { readFileSync, statSync } from 'node:fs';

/** Reads a secret from a file that only its owner may read; `what` names it in the refusal. */
export function readPrivateFile(path: string, what: string): string {
  const info = statSync(path);
  if ((info.mode & 0o077) !== 0)
    throw new Error(`The ${what} ${path} can be read by others: run chmod 600 ${path}`);
  if (typeof process.getuid === 'function' && info.uid !== process.getuid())
    throw new Error(`The ${what} ${path} belongs to another user`);
  const value = readFileSync(path, 'utf8').trim();
  if (!value) throw new Error(`The ${what} ${path} is empty`);
  return value;
}
