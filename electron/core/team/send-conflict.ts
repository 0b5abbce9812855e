/**
 * The send-time conflict check's decision (pure). A send carries the last activity of its chat the
 * agent had seen (`seenSeq`: a sequence of the team stream's `parley.team.activity.<chatId>`, where
 * the relay records every customer message and every reply in one order). If anything newer that
 * the agent did not write landed since — a teammate's reply, a customer's message — the send is
 * held and the composer says what: "Dana replied 20 s ago: …", with "Send anyway" and "Discard".
 */
import type { ChatActivityEntry } from './wire.ts';

export interface SequencedActivity {
  seq: number;
  entry: ChatActivityEntry;
}

export type SendDecision =
  | { decision: 'go' }
  | {
      decision: 'hold';
      /** What the agent has not seen, oldest first. */
      unseen: SequencedActivity[];
      /** In words, about the newest of them. */
      message: string;
      /** The newest activity's sequence: a "Send anyway" carries it as its new `seenSeq`. */
      latestSeq: number;
    };

export interface SendContext {
  sender: string;
  seenSeq: number;
  /** The chat's activity after `seenSeq` (more is harmless: older entries are ignored). */
  newer: readonly SequencedActivity[];
  now: number;
  nameOf: (agentId: string) => string;
}

export function decideSend({ sender, seenSeq, newer, now, nameOf }: SendContext): SendDecision {
  const unseen = newer
    .filter(({ seq, entry }) => seq > seenSeq && !(entry.kind === 'reply' && entry.agentId === sender))
    .sort((a, b) => a.seq - b.seq);
  const latest = unseen.at(-1);
  if (!latest) return { decision: 'go' };
  const more = unseen.length > 1 ? ` (and ${unseen.length - 1} more)` : '';
  return {
    decision: 'hold',
    unseen,
    message: `${describe(latest.entry, now, nameOf)}${more}`,
    latestSeq: latest.seq,
  };
}

function describe(entry: ChatActivityEntry, now: number, nameOf: (agentId: string) => string): string {
  const who =
    entry.kind === 'customer_message'
      ? 'The customer wrote'
      : `${entry.agentId ? nameOf(entry.agentId) : 'A teammate'} replied`;
  return `${who} ${ago(now - entry.at)}: ${entry.preview}`;
}

/** "just now", "20 s ago", "3 min ago", "2 h ago". */
export function ago(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 1) return 'just now';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}

/** A message's first line, short enough for a composer banner and an activity entry. */
export function previewOf(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
