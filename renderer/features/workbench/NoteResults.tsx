import { StickyNote } from 'lucide-react';
import type { NoteHit } from '../../../shared/contract/views.ts';
import { selectChat } from '../../actions/chats.ts';
import { revealNote } from '../../actions/workbench.ts';
import { Highlighted } from '../../components/Highlighted.tsx';
import { ResultRow, ResultSection } from '../../components/ResultList.tsx';
import { chatTitle } from '../../lib/chat-presentation.ts';
import { formatListTime } from '../../lib/format.ts';
import { getState } from '../../store/index.ts';

/** Search hits in private notes: opening one shows the conversation at the note. */
export function NoteResults({ hits, now }: { hits: readonly NoteHit[]; now: number }) {
  const inChats = hits.filter((hit) => hit.chat !== null);
  if (inChats.length === 0) return null;
  return (
    <ResultSection label="Notes found" heading="Private notes">
      {inChats.map((hit) => (
        <ResultRow
          key={hit.note.id}
          variant="is-message is-note"
          onClick={() => {
            const chatId = hit.chat?.id as number;
            selectChat(chatId);
            if (hit.note.chatId === null) getState().setDetailsOpen(true);
            else void revealNote(chatId, hit.note.id);
          }}
          title={
            <>
              <StickyNote size={12} aria-hidden="true" /> {hit.chat ? chatTitle(hit.chat) : 'Conversation'}
              <span className="result-time">{formatListTime(hit.note.updatedAt, now)}</span>
            </>
          }
          snippet
          sub={
            <>
              {hit.note.chatId === null ? 'Note on the contact: ' : 'Note: '}
              <Highlighted snippet={hit.snippet} />
            </>
          }
        />
      ))}
    </ResultSection>
  );
}
