import { useMemo } from 'react';
import { agentName, assigneeOf, presenceIn } from '../../lib/team-state.ts';
import { presentTeammates, type PresentAgent } from '../../lib/team-view.ts';
import { useStore } from '../../store/index.ts';

const NOBODY: readonly PresentAgent[] = [];

/**
 * The teammates in a conversation (avatars) and who owns it, for its inbox row and its header:
 * the same objects until that chat's presence changes, so a memoized row re-renders only for its
 * own chat.
 */
export function useChatTeam(chatId: number): {
  present: readonly PresentAgent[];
  assigneeName: string | null;
} {
  const entries = useStore((s) => presenceIn(s.team, chatId));
  const me = useStore((s) => s.team?.me ?? null);
  const assigneeName = useStore((s) => {
    const assignee = assigneeOf(s.team, chatId);
    if (assignee === null) return null;
    return assignee === s.team?.me ? 'You' : agentName(s.team, assignee);
  });
  const present = useMemo(() => {
    if (me === null || entries.length === 0) return NOBODY;
    const names = new Map(entries.map((e) => [e.agentId, e.name]));
    return presentTeammates(entries, me, (id) => names.get(id) ?? id);
  }, [entries, me]);
  return { present, assigneeName };
}
