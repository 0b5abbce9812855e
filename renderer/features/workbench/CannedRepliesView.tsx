import { MessageSquareText, Paperclip, Plus } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import type { CannedReply } from '../../../shared/contract/views.ts';
import { TEMPLATE_VARIABLES } from '../../../shared/workbench.ts';
import { loadCanned } from '../../actions/workbench.ts';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { ListHeader, ResultRow, ResultSection } from '../../components/ResultList.tsx';
import { fuzzyFilter } from '../../lib/fuzzy.ts';
import { getState, useStore } from '../../store/index.ts';
import { TeamCannedEditor, TeamCannedList } from '../team/TeamCannedReplies.tsx';
import { CannedEditor } from './CannedEditor.tsx';
import { CannedShare } from './CannedShare.tsx';

/** Canned replies: find, group, write and edit them; share a set as a JSON file. */
export function CannedRepliesView() {
  const canned = useStore((s) => s.canned);
  const status = useStore((s) => s.cannedStatus);
  const onTeam = useStore((s) => s.team !== null);
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<number | 'new' | null>(null);
  // A team reply open instead (on a team's workspace): its id, or 'new'.
  const [teamSelected, setTeamSelected] = useState<string | null>(null);
  const pick = (id: number | 'new') => {
    setTeamSelected(null);
    setSelected(id);
  };

  useEffect(() => {
    if (getState().cannedStatus === 'idle') void loadCanned();
  }, []);

  const groups = useMemo(() => {
    const found = fuzzyFilter(canned, query, (r) => `${r.title} ${r.group} ${r.body}`);
    const byGroup = new Map<string, CannedReply[]>();
    for (const reply of found) byGroup.set(reply.group, [...(byGroup.get(reply.group) ?? []), reply]);
    return [...byGroup.entries()].sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
  }, [canned, query]);
  const current = typeof selected === 'number' ? canned.find((r) => r.id === selected) : undefined;

  return (
    <div className="split-view canned-view">
      <section className="list-column" aria-label="Canned replies">
        <ListHeader
          title="Canned replies"
          beside={
            <>
              <span className="spacer" />
              <button type="button" className="button small" onClick={() => pick('new')}>
                <Plus size={14} aria-hidden="true" /> New
              </button>
            </>
          }
          search={{ label: 'Search canned replies', value: query, onChange: (e) => setQuery(e.target.value) }}
        >
          <CannedShare />
        </ListHeader>
        <div className="canned-list">
          {status === 'loading' && canned.length === 0 && <Spinner label="Loading canned replies" />}
          {status !== 'loading' && canned.length === 0 && (
            <EmptyState icon={<MessageSquareText size={22} />} title="No canned replies yet">
              Write the answers you give every day once, then insert them with <kbd>/</kbd> in any
              conversation.
            </EmptyState>
          )}
          {groups.map(([group, replies]) => (
            <ResultSection
              key={group}
              label={group || 'No group'}
              heading={
                <>
                  {group || 'No group'} {onTeam && <span className="canned-owner is-mine">Mine</span>}
                </>
              }
            >
              {replies.map((reply) => (
                <ResultRow
                  key={reply.id}
                  active={selected === reply.id}
                  onClick={() => pick(reply.id)}
                  title={
                    <>
                      {reply.title}
                      {reply.attachments.length > 0 && <Paperclip size={12} aria-label="With attachments" />}
                    </>
                  }
                  sub={reply.body}
                />
              ))}
            </ResultSection>
          ))}
          <TeamCannedList
            query={query}
            selected={teamSelected}
            onSelect={(id) => {
              setSelected(null);
              setTeamSelected(id);
            }}
          />
        </div>
      </section>
      <section className="detail-column canned-editor-column" aria-label="Canned reply">
        {teamSelected !== null ? (
          <TeamCannedEditor key={teamSelected} id={teamSelected} onDone={() => setTeamSelected(null)} />
        ) : selected === null ? (
          <EmptyState icon={<MessageSquareText size={26} />} title="Pick a canned reply">
            Or create a new one. Variables: {TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')}; give a
            fallback with a bar, like {'{first_name|there}'}.
          </EmptyState>
        ) : (
          <CannedEditor
            key={selected}
            reply={current}
            onSaved={(saved) => setSelected(saved.id)}
            onDeleted={() => setSelected(null)}
          />
        )}
      </section>
    </div>
  );
}
