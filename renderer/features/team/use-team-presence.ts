import type { ChatPresence } from '../../lib/team-state.ts';
import { useStore } from '../../store/index.ts';
import { agentName, assigneeOf, presenceIn } from '../../store/team-slice.ts';

/**
 * Who is in a conversation and who owns it, for its inbox row and its header: the presence
 * entries are the team picture's own array (the same until that chat's presence changes), so a
 * memoized row re-renders only for its own chat. Null `me`: no team.
 */
export function useChatTeam(chatId: number): {
  entries: ChatPresence;
  me: string | null;
  assigneeName: string | null;
} {
  const entries = useStore((s) => presenceIn(s.team, chatId));
  const me = useStore((s) => s.team?.me ?? null);
  const assigneeName = useStore((s) => {
    const assignee = assigneeOf(s.team, chatId);
    if (assignee === null) return null;
    return assignee === s.team?.me ? 'You' : agentName(s.team, assignee);
  });
  return { entries, me, assigneeName };
}
