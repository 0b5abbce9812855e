import { Paperclip, Trash2, X } from 'lucide-react';
import { useRef, useState } from 'react';
import type { CannedReply, StagedAttachment } from '../../../shared/contract/views.ts';
import { fieldLabel } from '../../../shared/contract/input-words.ts';
import {
  MAX_CANNED_BODY_CHARS,
  MAX_CANNED_GROUP_CHARS,
  MAX_CANNED_TITLE_CHARS,
} from '../../../shared/contract/limits.ts';
import { MAX_CANNED_ATTACHMENTS, TEMPLATE_VARIABLES } from '../../../shared/workbench.ts';
import { stageFiles, unstageFiles } from '../../actions/composer.ts';
import { deleteCanned, saveCanned } from '../../actions/workbench.ts';
import { LengthLimit, lengthProblem } from '../../components/LengthLimit.tsx';
import { ACCEPT_ATTRIBUTE } from '../../lib/attachment-rules.ts';
import { errorText } from '../../lib/errors.ts';
import { formatBytes } from '../../lib/format.ts';
import { getState } from '../../store/index.ts';
import { LabeledInput, LabeledTextarea } from '../../components/FormField.tsx';

const LABELS = {
  title: fieldLabel('canned.save', ['title']),
  group: fieldLabel('canned.save', ['group']),
  body: fieldLabel('canned.save', ['body']),
};

/**
 * One of the agent's canned replies, new or saved: its title, group, words (with variables) and
 * files (kept, or staged now and sent with the save). Delete is here too.
 */
export function CannedEditor({
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
        <LabeledInput
          id="canned-title"
          label="Title"
          value={title}
          required
          aria-invalid={lengths[0].length > lengths[0].max || undefined}
          aria-describedby="canned-title-length"
          onChange={(e) => setTitle(e.target.value)}
        >
          <LengthLimit id="canned-title-length" {...lengths[0]} />
        </LabeledInput>
        <LabeledInput
          id="canned-group"
          label="Group"
          value={group}
          placeholder="e.g. Billing"
          aria-invalid={lengths[1].length > lengths[1].max || undefined}
          aria-describedby="canned-group-length"
          onChange={(e) => setGroup(e.target.value)}
        >
          <LengthLimit id="canned-group-length" {...lengths[1]} />
        </LabeledInput>
        <LabeledTextarea
          id="canned-body"
          label="Reply"
          wide
          className="canned-body"
          rows={6}
          value={body}
          aria-invalid={lengths[2].length > lengths[2].max || undefined}
          aria-describedby="canned-body-length canned-body-hint"
          onChange={(e) => setBody(e.target.value)}
        >
          <LengthLimit id="canned-body-length" {...lengths[2]} />
          <span id="canned-body-hint" className="field-hint">
            Variables: {TEMPLATE_VARIABLES.map((v) => `{${v}}`).join(' ')}. A fallback follows a bar:{' '}
            {'{first_name|there}'}. Write {'{{'} for a literal brace.
          </span>
        </LabeledTextarea>
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
