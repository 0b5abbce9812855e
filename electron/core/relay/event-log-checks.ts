/**
 * The checks a joined desktop makes of every message in the relay's event log, as untrusted input:
 * the subject must be an event log subject, the body at most 1 MiB of JSON that the webhook schemas
 * accept (zod), of the subject's API version, and stored under its own event id; a polled change,
 * under a polled change's id, of the polled change's shape.
 */
import { z } from 'zod';
import { MAX_WEBHOOK_BODY_BYTES } from '../realtime/listener.ts';
import { isV3Event, type LiveEvent, parseLiveEvent } from '../realtime/live-event.ts';
import { PolledChangeSchema, type PolledChange } from './polled-changes.ts';
import { eventLogSubject } from './subjects.ts';

/** Strict UTF-8, made once: every message of the log is decoded with it (it keeps no state between calls). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

type Checked = { ok: true; event: LiveEvent; body: string } | { ok: false; reason: string };

/** Validates a polled change in the log as untrusted input. */
export function checkPolled(
  data: Uint8Array,
  msgId: string | undefined,
): { ok: true; change: PolledChange } | { ok: false; reason: string } {
  if (data.length > MAX_WEBHOOK_BODY_BYTES) return { ok: false, reason: 'body too large' };
  if (!msgId?.startsWith('poll-')) return { ok: false, reason: 'a polled change without its id' };
  try {
    const parsed = PolledChangeSchema.safeParse(JSON.parse(UTF8.decode(data)));
    if (parsed.success) return { ok: true, change: parsed.data as PolledChange };
    return { ok: false, reason: `not a polled change: ${z.prettifyError(parsed.error).slice(0, 300)}` };
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
}

/** Validates one message of the log as untrusted input. */
export function checkLogged(subject: string, data: Uint8Array, msgId: string | undefined): Checked {
  const version = subject === eventLogSubject('v2') ? 'v2' : subject === eventLogSubject('v3') ? 'v3' : null;
  if (!version) return { ok: false, reason: `not an event log subject: ${subject.slice(0, 100)}` };
  if (data.length > MAX_WEBHOOK_BODY_BYTES) return { ok: false, reason: 'body too large' };
  let body: string;
  let event: LiveEvent;
  try {
    body = UTF8.decode(data);
    event = parseLiveEvent(JSON.parse(body));
  } catch (error) {
    const reason = error instanceof z.ZodError ? z.prettifyError(error) : 'not JSON';
    return { ok: false, reason: `not a webhook event: ${reason.slice(0, 300)}` };
  }
  const eventVersion = isV3Event(event) ? 'v3' : 'v2';
  if (eventVersion !== version) return { ok: false, reason: `a ${eventVersion} event on ${subject}` };
  if (msgId !== event.eventId) return { ok: false, reason: 'stored under another id than its event id' };
  return { ok: true, event, body };
}
