/**
 * An agent id, a send key: one subject token each (no dots, no wildcards, nothing empty). A leaf, so
 * that the relay's subjects and the team's subjects both use it without naming each other.
 */
export const SUBJECT_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

/** `value` as one subject token; throws for anything else (a name must never widen a subject). */
export function subjectToken(value: string): string {
  if (!SUBJECT_TOKEN.test(value)) throw new TypeError(`not a subject token: ${JSON.stringify(value)}`);
  return value;
}
