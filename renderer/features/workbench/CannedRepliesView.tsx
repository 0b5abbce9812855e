import { Download, MessageSquareText, Paperclip, Plus, Search, Trash2, Upload, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CannedReply, StagedAttachment } from '../../../shared/contract/views.ts';
import { fieldLabel } from '../../../shared/contract/input-words.ts';
import {
  MAX_CANNED_BODY_CHARS,
  MAX_CANNED_GROUP_CHARS,
  MAX_CANNED_TITLE_CHARS,
} from '../../../shared/contract/limits.ts';
import { MAX_CANNED_ATTACHMENTS, TEMPLATE_VARIABLES } from '../../../shared/workbench.ts';
import { stageFiles, unstageFiles } from '../../actions/composer.ts';
import { deleteCanned, exportCanned, importCanned, loadCanned, saveCanned } from '../../actions/workbench.ts';
import { EmptyState, Spinner } from '../../components/EmptyState.tsx';
import { ACCEPT_ATTRIBUTE } from '../../lib/attachment-rules.ts';
import { errorText } from '../../lib/errors.ts';
import { formatBytes } from '../../lib/format.ts';
import { fuzzyFilter } from '../../lib/fuzzy.ts';
import { getState, useStore } from '../../store/index.ts';
import { LengthLimit, lengthProblem } from '../../components/LengthLimit.tsx';
import { TeamCannedEditor, TeamCannedList } from '../team/TeamCannedReplies.tsx';

const LABELS = {
  title: fieldLabel('canned.save', ['title']),
  group: fieldLabel('canned.save', ['group']),
  body: fieldLabel('canned.save', ['body']),
};

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
  const [importProblem, setImportProblem] = useState<string | null>(null);
  const [replace, setReplace] = useState(false);
  const importInput = useRef<HTMLInputElement>(null);

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
        <div className="inbox-header">
          <div className="inbox-title-row">
            <h1 className="inbox-title">Canned replies</h1>
            <span className="spacer" />
            <button type="button" className="button small" onClick={() => pick('new')}>
              <Plus size={14} aria-hidden="true" /> New
            </button>
          </div>
          <div className="search-field">
            <Search size={15} aria-hidden="true" />
            <input
              type="search"
              aria-label="Search canned replies"
              placeholder="Search canned replies"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          <div className="canned-share">
            <button type="button" className="button small ghost" onClick={() => void exportCanned()}>
              <Download size={13} aria-hidden="true" /> Export
            </button>
            <button type="button" className="button small ghost" onClick={() => importInput.current?.click()}>
              <Upload size={13} aria-hidden="true" /> Import
            </button>
            <label className="checkbox small">
              <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.target.checked)} />{' '}
              Replace my set on import
            </label>
            <input
              ref={importInput}
              type="file"
              accept="application/json,.json"
              hidden
              aria-label="Canned replies file to import"
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void importCanned(file, replace).then(setImportProblem);
              }}
            />
          </div>
          {importProblem && (
            <div className="form-error" role="alert">
              Nothing was imported. {importProblem}
              <button
                type="button"
                className="icon-button small"
                aria-label="Dismiss"
                onClick={() => setImportProblem(null)}
              >
                <X size={12} />
              </button>
            </div>
          )}
        </div>
        <div className="canned-list">
          {status === 'loading' && canned.length === 0 && <Spinner label="Loading canned replies" />}
          {status !== 'loading' && canned.length === 0 && (
            <EmptyState icon={<MessageSquareText size={22} />} title="No canned replies yet">
              Write the answers you give every day once, then insert them with <kbd>/</kbd> in any
              conversation.
            </EmptyState>
          )}
          {groups.map(([group, replies]) => (
            <section key={group} aria-label={group || 'No group'}>
              <h2 className="section-label">
                {group || 'No group'} {onTeam && <span className="canned-owner is-mine">Mine</span>}
              </h2>
              <ul className="result-list">
                {replies.map((reply) => (
                  <li key={reply.id}>
                    <button
                      type="button"
                      className={`result-row${selected === reply.id ? ' is-active' : ''}`}
                      aria-current={selected === reply.id || undefined}
                      onClick={() => pick(reply.id)}
                    >
                      <span className="result-text">
                        <span className="result-title">
                          {reply.title}
                          {reply.attachments.length > 0 && (
                            <Paperclip size={12} aria-label="With attachments" />
                          )}
                        </span>
                        <span className="result-sub">{reply.body}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
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

function CannedEditor({
  reply,
  onSaved,
  onDeleted,
}: {
  reply: CannedReply | undefined;
  onSaved(reply: CannedReply): void;
  onDeleted(): void;
}) {
  const [title, setTitle] = useState(reply?.title ?? '');
  const [group, setGroup] = useState(reply?.group ?? '');
  const [body, setBody] = useState(reply?.body ?? '');
  const [kept, setKept] = useState(reply?.attachments ?? []);
  const [added, setAdded] = useState<StagedAttachment[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const full = kept.length + added.length >= MAX_CANNED_ATTACHMENTS;

  const lengths = [
    { label: LABELS.title, length: title.trim().length, max: MAX_CANNED_TITLE_CHARS },
    { label: LABELS.group, length: group.trim().length, max: MAX_CANNED_GROUP_CHARS },
    { label: LABELS.body, length: body.length, max: MAX_CANNED_BODY_CHARS },
  ] as const;

  const save = async () => {
    // Nothing is cut to fit: a field over its limit is refused, in the words beside it.
    const tooLong = lengths.map((f) => lengthProblem(f.label, f.length, f.max)).find((p) => p !== null);
    if (tooLong) return setProblem(tooLong);
    setSaving(true);
    setProblem(null);
    try {
      const saved = await saveCanned({
        ...(reply ? { id: reply.id } : {}),
        title,
        group,
        body,
        stagedIds: added.map((a) => a.id),
        keepAttachmentIds: kept.map((a) => a.id),
      });
      getState().announce(`Saved “${saved.title}”`);
      onSaved(saved);
    } catch (error) {
      setProblem(errorText(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="form canned-editor"
      aria-label={reply ? `Edit ${reply.title}` : 'New canned reply'}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>{reply ? 'Edit canned reply' : 'New canned reply'}</h2>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="canned-title">Title</label>
          <input
            id="canned-title"
            className="input"
            value={title}
            required
            aria-invalid={lengths[0].length > lengths[0].max || undefined}
            aria-describedby="canned-title-length"
            onChange={(e) => setTitle(e.target.value)}
          />
          <LengthLimit id="canned-title-length" {...lengths[0]} />
        </div>
        <div className="field">
          <label htmlFor="canned-group">Group</label>
          <input
            id="canned-group"
            className="input"
            value={group}
            placeholder="e.g. Billing"
            aria-invalid={lengths[1].length > lengths[1].max || undefined}
            aria-describedby="canned-group-length"
            onChange={(e) => setGroup(e.target.value)}
          />
          <LengthLimit id="canned-group-length" {...lengths[1]} />
        </div>
        <div className="field span-2">
          <label htmlFor="canned-body">Reply</label>
          <textarea
            id="canned-body"
            className="input canned-body"
            rows={6}
            value={body}
            aria-invalid={lengths[2].length > lengths[2].max || undefined}
            aria-describedby="canned-body-length canned-body-hint"
            onChange={(e) => setBody(e.target.value)}
          />
          <LengthLimit id="canned-body-length" {...lengths[2]} />
          <span id="canned-body-hint" className="field-hint">
            Variables: {TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')}. A fallback follows a bar:{' '}
            {'{first_name|there}'}. Write {'{{'} for a literal brace.
          </span>
        </div>
      </div>
      <div className="canned-files" role="group" aria-label="Attachments">
        {kept.map((a) => (
          <span key={`k${a.id}`} className="attachment-chip">
            <Paperclip size={12} aria-hidden="true" /> {a.filename} · {formatBytes(a.size)}
            <button
              type="button"
              className="icon-button small"
              aria-label={`Remove ${a.filename}`}
              onClick={() => setKept((list) => list.filter((x) => x.id !== a.id))}
            >
              <X size={12} />
            </button>
          </span>
        ))}
        {added.map((a) => (
          <span key={a.id} className="attachment-chip">
            <Paperclip size={12} aria-hidden="true" /> {a.filename} · {formatBytes(a.size)}
            <button
              type="button"
              className="icon-button small"
              aria-label={`Remove ${a.filename}`}
              onClick={() => {
                setAdded((list) => list.filter((x) => x.id !== a.id));
                unstageFiles([a.id]);
              }}
            >
              <X size={12} />
            </button>
          </span>
        ))}
        <button
          type="button"
          className="button small ghost"
          disabled={full}
          onClick={() => fileInput.current?.click()}
        >
          <Paperclip size={13} aria-hidden="true" /> Attach a file (up to 1 MB)
        </button>
        <input
          ref={fileInput}
          type="file"
          accept={ACCEPT_ATTRIBUTE}
          hidden
          aria-label="File for this canned reply"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void stageFiles(files)
              .then((staged) => setAdded((list) => [...list, ...staged]))
              .catch((error: unknown) => setProblem(errorText(error)));
          }}
        />
      </div>
      {problem && (
        <div className="form-error" role="alert">
          {problem}
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save canned reply'}
        </button>
        {reply && (
          <button
            type="button"
            className="button danger ghost"
            onClick={() => void deleteCanned(reply).then(onDeleted)}
          >
            <Trash2 size={14} aria-hidden="true" /> Delete
          </button>
        )}
      </div>
    </form>
  );
}
