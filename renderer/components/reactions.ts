import type { ReactionKind } from '../../shared/domain.ts';
import { REACTION_KINDS } from '../../shared/domain.ts';

const REACTION_LOOK_TABLE: Record<ReactionKind, { emoji: string; label: string; verb: string }> = {
  love: { emoji: '❤️', label: 'Love', verb: 'Loved' },
  like: { emoji: '👍', label: 'Like', verb: 'Liked' },
  dislike: { emoji: '👎', label: 'Dislike', verb: 'Disliked' },
  laugh: { emoji: '😂', label: 'Laugh', verb: 'Laughed at' },
  emphasize: { emoji: '‼️', label: 'Emphasize', verb: 'Emphasized' },
  question: { emoji: '❓', label: 'Question', verb: 'Questioned' },
};

/** The six tapbacks as agents know them. */
export const REACTIONS: ReadonlyArray<{ kind: ReactionKind; emoji: string; label: string; verb: string }> =
  REACTION_KINDS.map((kind) => ({ kind, ...REACTION_LOOK_TABLE[kind] }));

export function reactionLook(kind: string): { emoji: string; label: string; verb: string } {
  return REACTION_LOOK_TABLE[kind as ReactionKind] ?? { emoji: '•', label: kind, verb: kind };
}
