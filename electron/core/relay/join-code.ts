/**
 * A join code: what an agent pastes into "Join your team" — the relay's NATS URL, the agent's id and
 * its nkey seed (and, for a relay whose TLS certificate a private CA signed, that CA), as one line. The seed is a credential: the code is printed once and never logged.
 */
import { z } from 'zod';
import { SUBJECT_TOKEN } from './subjects.ts';

const PREFIX = 'parley-join-1.';

/** A relay's address as agents reach it. */
export const RELAY_URL = /^(nats|tls|wss?):\/\/[^\s]+$/;

/** A CA certificate (PEM) the relay's TLS certificate is signed by, when it is a private one. */
export const RELAY_CA = z
  .string()
  .max(16_000)
  .regex(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----\s*$/, 'a PEM certificate');

const JoinCode = z.object({
  url: z.string().regex(RELAY_URL, 'a nats:// URL'),
  agentId: z.string().regex(SUBJECT_TOKEN),
  seed: z.string().regex(/^SU[A-Z2-7]{56}$/, 'a user nkey seed'),
  /** With a `tls://` relay signed by a private CA: that CA, the only one trusted for it. */
  ca: RELAY_CA.optional(),
});
export type JoinCode = z.infer<typeof JoinCode>;

export function encodeJoinCode(code: JoinCode): string {
  return PREFIX + Buffer.from(JSON.stringify(JoinCode.parse(code))).toString('base64url');
}

/** Throws an Error in words an agent understands when the code is not one. */
export function parseJoinCode(text: string): JoinCode {
  const trimmed = text.trim();
  if (!trimmed.startsWith(PREFIX)) throw new Error('This is not a Parley join code');
  try {
    return JoinCode.parse(
      JSON.parse(Buffer.from(trimmed.slice(PREFIX.length), 'base64url').toString('utf8')),
    );
  } catch {
    throw new Error('This join code is damaged: copy it again from the relay');
  }
}
