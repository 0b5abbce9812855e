import { useEffect } from 'react';
import { loadTeamNotes } from '../../actions/team.ts';
import { PresenceAvatars } from '../../components/PresenceAvatars.tsx';
import { presenceSummary } from '../../lib/team-view.ts';
import { getState, useStore } from '../../store/index.ts';
import { useChatTeam } from './use-team-presence.ts';

/** In a conversation's header: which teammates are in it, doing what ("Dana is typing a reply"). */
export function HeaderPresence({ chatId }: { chatId: number }) {
  const { present } = useChatTeam(chatId);
  const onTeam = useStore((s) => s.team !== null);
  // Opening a conversation shows its team notes and clears the mentions it holds.
  useEffect(() => {
    if (!onTeam) return;
    void loadTeamNotes(chatId);
    getState().dismissMentions(chatId);
  }, [chatId, onTeam]);
  if (present.length === 0) return null;
  return (
    <div className="header-presence">
      <PresenceAvatars present={present} size={24} />
      <span className="header-presence-text">{presenceSummary(present)}</span>
    </div>
  );
}
