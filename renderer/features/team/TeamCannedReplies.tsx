import { Trash2, Users } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { deleteTeamReply, saveTeamReply } from '../../actions/team.ts';
import { LabeledInput, LabeledTextarea } from '../../components/FormField.tsx';
import { ResultRow } from '../../components/ResultList.tsx';
import { fuzzyFilter } from '../../lib/fuzzy.ts';
import { adminNames, mayEditTeamReplies, oneOf } from '../../lib/team-roles.ts';
import { useStore } from '../../store/index.ts';

/**
 * The canned replies view's team set: shared by everyone on the team, live; new ones from whoever
 * may edit them (team-roles.ts). Only on a team's workspace.
 */
export function TeamCannedList({
  query,
  selected,
  onSelect,
}: {
  query: string;
  selected: string | null;
  onSelect(id: string | 'new'): void;
}) {
  const onTeam = useStore((s) => s.team !== null);
  const mayEdit = useStore((s) => s.team !== null && mayEditTeamReplies(s.team));
  const all = useStore((s) => s.teamReplies);
  const replies = useMemo(() => fuzzyFilter(all, query, (r) => `${r.title} ${r.body}`), [all, query]);
  if (!onTeam) return null;
  return (
    <section aria-labelledby="team-canned-label" className="team-canned">
      <div className="inbox-title-row">
        <h2 className="section-label" id="team-canned-label">
          Team replies <span className="canned-owner is-team">Team</span>
        </h2>
        <span className="spacer" />
        {mayEdit && (
          <button type="button" className="button small ghost" onClick={() => onSelect('new')}>
            New team reply
          </button>
        )}
      </div>
      {replies.length === 0 && <p className="muted">No team replies{query ? ' match' : ' yet'}.</p>}
      <ul className="result-list">
        {replies.map((reply) => (
          <ResultRow
            key={reply.id}
            active={selected === reply.id}
            onClick={() => onSelect(reply.id)}
            leading={<Users size={14} aria-hidden="true" />}
            title={reply.title}
            sub={reply.body}
          />
        ))}
      </ul>
    </section>
  );
}

/**
 * Writes or edits a team reply (everyone on the team sees the change at once); shows it, read-only
 * and saying who can change it, to an agent who may not.
 */
export function TeamCannedEditor({ id, onDone }: { id: string | 'new'; onDone(): void }) {
  const reply = useStore((s) => (id === 'new' ? undefined : s.teamReplies.find((r) => r.id === id)));
  const team = useStore((s) => s.team);
  const mayEdit = team !== null && mayEditTeamReplies(team);
  const [title, setTitle] = useState(reply?.title ?? '');
  const [body, setBody] = useState(reply?.body ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const fieldId = useId();
  return (
    <form
      className="form canned-editor"
      aria-label={reply ? `Edit team reply ${reply.title}` : 'New team reply'}
      onSubmit={(e) => {
        e.preventDefault();
        void saveTeamReply({ ...(reply ? { id: reply.id } : {}), title, body }).then((error) =>
          error ? setProblem(error) : onDone(),
        );
      }}
    >
      <h2>{!mayEdit ? 'Team reply' : reply ? 'Edit team reply' : 'New team reply'}</h2>
      <p className="hint">
        <span className="canned-owner is-team">Team</span> Everyone on your team sees it;{' '}
        {mayEdit
          ? team?.settings.everyoneEditsTeamReplies
            ? 'everyone can change it'
            : 'admins can change it'
          : `only ${oneOf(team ? adminNames(team) : []) || 'a team admin'} can change it`}
        {reply ? ` · last changed by ${reply.updatedByName}` : ''}
      </p>
      <div className="form-grid">
        <LabeledInput
          id={`${fieldId}-title`}
          label="Title"
          wide
          value={title}
          readOnly={!mayEdit}
          required
          maxLength={200}
          onChange={(e) => setTitle(e.target.value)}
        />
        <LabeledTextarea
          id={`${fieldId}-body`}
          label="Reply"
          wide
          className="canned-body"
          rows={6}
          value={body}
          readOnly={!mayEdit}
          maxLength={10_000}
          onChange={(e) => setBody(e.target.value)}
        />
      </div>
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
      {mayEdit && (
        <div className="form-actions">
          <button
            type="submit"
            className="button primary"
            disabled={title.trim() === '' || body.trim() === ''}
          >
            Save for the team
          </button>
          {reply && (
            <button
              type="button"
              className="button ghost danger"
              onClick={() => void deleteTeamReply(reply.id).then(onDone)}
            >
              <Trash2 size={13} aria-hidden="true" /> Delete
            </button>
          )}
        </div>
      )}
    </form>
  );
}
