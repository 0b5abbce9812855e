import { useEffect } from 'react';
import { loadTeamNotes } from '../../actions/team.ts';
import { PresenceAvatars } from '../../components/PresenceAvatars.tsx';
import { useStore } from '../../store/index.ts';
import { useChatTeam } from './use-team-presence.ts';

/**
 * In a conversation's header: which teammates are in it, doing what ("Dana is typing a reply").
 * Opening a conversation on a team's workspace also loads its team notes.
 */
export function HeaderPresence({ chatId }: { chatId: number }) {
  const { entries, me } = useChatTeam(chatId);
  useEffect(() => {
    if (me === null) return;
    void loadTeamNotes(chatId);
  }, [chatId, me]);
  const onTeam = useStore((s) => s.team !== null);
  if (!onTeam || me === null) return null;
  return (
    <div className="header-presence">
      <PresenceAvatars entries={entries} me={me} size={24} withText />
    </div>
  );
}
