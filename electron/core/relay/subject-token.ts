/**
 * An agent id, a send key: one subject token each (no dots, no wildcards, nothing empty), and the
 * read rights on a stream. A leaf, so that the relay's subjects and the team's subjects both use
 * them without naming each other.
 */
export const SUBJECT_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

/** `value` as one subject token; throws for anything else (a name must never widen a subject). */
export function subjectToken(value: string): string {
  if (!SUBJECT_TOKEN.test(value)) throw new TypeError(`not a subject token: ${JSON.stringify(value)}`);
  return value;
}

/**
 * What reading one stream takes of the JetStream API — its info, message and direct gets, consumers
 * on it — and the flow-control replies its push consumers (a KV watch, an object's chunks) send.
 * Shared by the agent's own files bucket (subjects.ts) and the team's buckets and stream
 * (team-subjects.ts), so a read right is spelled once.
 */
export function streamReadPermissions(stream: string): string[] {
  const api = '$JS.API';
  return [
    `${api}.STREAM.INFO.${stream}`,
    `${api}.STREAM.MSG.GET.${stream}`,
    `${api}.DIRECT.GET.${stream}`,
    `${api}.DIRECT.GET.${stream}.>`,
    `${api}.CONSUMER.CREATE.${stream}`,
    `${api}.CONSUMER.CREATE.${stream}.>`,
    `${api}.CONSUMER.INFO.${stream}.*`,
    `${api}.CONSUMER.DELETE.${stream}.*`,
    `${api}.CONSUMER.MSG.NEXT.${stream}.*`,
    `$JS.FC.${stream}.>`,
  ];
}
