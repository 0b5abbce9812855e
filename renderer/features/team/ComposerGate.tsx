import { Lock } from 'lucide-react';
import { takeOver } from '../../actions/team.ts';
import { useStore } from '../../store/index.ts';
import { agentName, assigneeOf } from '../../store/team-slice.ts';

/**
 * Who may reply, when the team allows only the assignee to: null when this agent may (no team,
 * the setting off, nobody or this agent owns it), else the owner's name.
 */
export function useComposerOwner(chatId: number): string | null {
  return useStore((s) => {
    const team = s.team;
    if (!team?.settings.assigneeOnlyComposer) return null;
    const owner = assigneeOf(team, chatId);
    return owner === null || owner === team.me ? null : agentName(team, owner);
  });
}

/** In place of the composer while a teammate owns the conversation: who, and "Take over". */
export function ComposerGate({ chatId, owner }: { chatId: number; owner: string }) {
  return (
    <div className="composer is-blocked">
      <p className="composer-blocked" role="status">
        <Lock size={14} aria-hidden="true" /> {owner} has this conversation: only they can reply.
      </p>
      <button type="button" className="button small" onClick={() => void takeOver(chatId)}>
        Take over
      </button>
    </div>
  );
}
