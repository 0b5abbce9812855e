/**
 * The browser host's bridge frames: a call is `{id, method, input}` as JSON text, and anything else
 * is refused with a protocol error that echoes an id only when the page could be waiting on it.
 */
import type { RawData } from 'ws';
import { z } from 'zod';

/** A bridge call as the page sends it. Anything else is refused with a protocol error. */
const CallFrame = z
  .object({
    id: z.number().int().nonnegative().safe(),
    method: z.string().min(1).max(200),
    input: z.unknown(),
  })
  .strict();

export type ParsedFrame =
  | { ok: true; id: number; method: string; input: unknown }
  | { ok: false; id: number | null; message: string };

export function parseFrame(data: RawData, isBinary: boolean): ParsedFrame {
  if (isBinary) return { ok: false, id: null, message: 'Frames are JSON text, not binary' };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : String(data));
  } catch {
    return { ok: false, id: null, message: 'Malformed frame: not JSON' };
  }
  const call = CallFrame.safeParse(value);
  if (call.success) return { ok: true, ...call.data };
  const id = (value as { id?: unknown } | null)?.id;
  return {
    ok: false,
    // The id is echoed only when it is one the page could be waiting on.
    id: typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null,
    message: 'A call is {id, method, input}: a whole-number id and a method name',
  };
}
