/**
 * The words of the team's composer (pure, unit-tested in test/unit/renderer/team-view.test.ts): a
 * held send's words as the teammate's reply ages, and the `@name` being typed in a team note and
 * its completion. Off the boot path: only an open conversation needs them.
 */
import { SEND_HELD_CODE } from '../../shared/contract/team-views.ts';
import type { Message } from '../../shared/domain.ts';
import type { FailurePresentation } from './delivery.ts';

/**
 * A message the team relay held back at send time, as its bubble shows it: not sent, why, and no
 * Retry or Discard of its own (the composer's banner offers "Send anyway" and "Discard").
 */
export function heldPresentation(message: Pick<Message, 'state' | 'error'>): FailurePresentation | null {
  if (message.state !== 'failed' || message.error?.code !== SEND_HELD_CODE) return null;
  // What landed meanwhile is the status's words already (the error's message): said once.
  return { title: 'Held: not sent', hint: null, code: null, action: 'held' };
}

/** "just now", "20 s ago", "3 min ago", "2 h ago": a teammate's reply, as it ages on screen. */
export function agoText(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 1) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}

const AGE = /^(.*? (?:replied|wrote)) (just now|(\d+) s ago|(\d+) min ago|(\d+) h ago)(: [\s\S]*)$/;

/**
 * A held send's words as time passes: the core says what landed when it held the send ("Dana
 * replied 20 s ago: …"); shown later, the age is counted again from `heldAt`, so the composer
 * never says "20 s ago" of a reply minutes old. Words of another form are shown as they came.
 */
export function heldWords(words: string, heldAt: number, now: number): string {
  const match = AGE.exec(words);
  if (!match) return words;
  const [, who, , seconds, minutes, hours, rest] = match;
  const ageThen =
    seconds !== undefined
      ? Number(seconds) * 1000
      : minutes !== undefined
        ? Number(minutes) * 60_000
        : hours !== undefined
          ? Number(hours) * 3_600_000
          : 0;
  return `${who} ${agoText(now - heldAt + ageThen)}${rest}`;
}

export interface MentionQuery {
  /** Where the `@` is in the text. */
  start: number;
  /** What follows it up to the caret, lower-cased. */
  query: string;
}

/**
 * The `@name` the caret is in, if any: an `@` at the start or after a non-word character, followed
 * by at most two words (a full name) and nothing else up to the caret.
 */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  const before = text.slice(0, caret);
  const match = /(^|[^\p{L}\p{N}_])@([\p{L}\p{N}_-]*(?: [\p{L}\p{N}_-]*)?)$/u.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query: query.toLowerCase() };
}

/** The teammates a mention query may mean: by name or id starting with it, at most `limit`. */
export function mentionCandidates<T extends { id: string; name: string }>(
  agents: readonly T[],
  query: string,
  me: string,
  limit = 6,
): T[] {
  const q = query.trim().toLowerCase();
  return agents
    .filter((agent) => agent.id !== me)
    .filter((agent) => {
      const name = agent.name.toLowerCase();
      return (
        name.startsWith(q) ||
        name.split(/\s+/).some((word) => word.startsWith(q)) ||
        agent.id.toLowerCase().startsWith(q)
      );
    })
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, limit);
}

/** The text with the mention at `query` completed to `@Full Name ` and where the caret goes. */
export function completeMention(
  text: string,
  caret: number,
  query: MentionQuery,
  name: string,
): { text: string; caret: number } {
  const inserted = `@${name} `;
  const next = text.slice(0, query.start) + inserted + text.slice(caret).replace(/^ /, '');
  return { text: next, caret: query.start + inserted.length };
}
