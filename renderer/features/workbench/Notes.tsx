import { Lock, Pencil, StickyNote, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { fieldLabel } from '../../../shared/contract/input-words.ts';
import { MAX_NOTE_CHARS } from '../../../shared/contract/limits.ts';
import type { Note } from '../../../shared/contract/views.ts';
import { addNote, deleteNote, editNote } from '../../actions/workbench.ts';
import { addTeamNote, reportNoting } from '../../actions/team.ts';
import { formatListTime } from '../../lib/format.ts';
import { getState, useStore } from '../../store/index.ts';
import { LengthLimit } from '../../components/LengthLimit.tsx';
import { useMentionPicker } from '../team/MentionPicker.tsx';
import { SubmitOrCancel } from '../../components/SubmitOrCancel.tsx';

export const PRIVATE_LABEL = 'Only you can see this';
export const TEAM_LABEL = 'Your team sees this, never the customer';
const NOTE_LABEL = fieldLabel('notes.add', ['text']);

/** A private note in the timeline: never sent, and unmistakably not a message. */
export function NoteItem({ note, now, highlighted }: { note: Note; now: number; highlighted: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <article
      className={`note-item${highlighted ? ' is-highlighted' : ''}`}
      aria-label={`Private note, ${formatListTime(note.createdAt, now)}`}
      data-note-id={note.id}
    >
      <header className="note-header">
        <StickyNote size={14} aria-hidden="true" />
        <span className="note-label">Private note</span>
        <span className="note-private">
          <Lock size={11} aria-hidden="true" /> {PRIVATE_LABEL}
        </span>
        <time className="note-time" dateTime={new Date(note.createdAt).toISOString()}>
          {formatListTime(note.createdAt, now)}
          {note.updatedAt > note.createdAt ? ' · edited' : ''}
        </time>
      </header>
      {editing ? (
        <NoteEditor
          initial={note.text}
          label="Edit note"
          submitLabel="Save note"
          onSubmit={async (text) => {
            await editNote(note, text);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <>
          <p className="note-text">{note.text}</p>
          <div className="note-actions">
            <button type="button" className="button small ghost" onClick={() => setEditing(true)}>
              <Pencil size={12} aria-hidden="true" /> Edit
            </button>
            <button type="button" className="button small ghost" onClick={() => void deleteNote(note)}>
              <Trash2 size={12} aria-hidden="true" /> Delete
            </button>
          </div>
        </>
      )}
    </article>
  );
}

/** Writes or edits a note: Ctrl/⌘ Enter saves, Escape cancels. */
export function NoteEditor({
  initial = '',
  label,
  submitLabel,
  onSubmit,
  onCancel,
  onInput,
}: {
  initial?: string;
  label: string;
  submitLabel: string;
  onSubmit(text: string): Promise<void> | void;
  onCancel(): void;
  /** Each change of the text (a team note reports that it is being written). */
  onInput?(text: string): void;
}) {
  const [text, setText] = useState(initial);
  const [caret, setCaret] = useState(initial.length);
  const input = useRef<HTMLTextAreaElement>(null);
  const onTeam = useStore((s) => s.team !== null);
  const mention = useMentionPicker(
    text,
    caret,
    (next, at) => {
      setText(next);
      setCaret(at);
    },
    input,
  );
  const id = useId();
  const length = text.trim().length;
  const tooLong = length > MAX_NOTE_CHARS;
  const submit = () => {
    if (text.trim() !== '' && !tooLong) void onSubmit(text.trim());
  };
  return (
    <form
      className="note-editor"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        ref={input}
        id={id}
        className="note-input"
        value={text}
        rows={2}
        autoFocus
        placeholder={
          onTeam
            ? 'A note for your team: never sent to the customer. @name tells a teammate'
            : 'A note for yourself: never sent to the customer'
        }
        aria-invalid={tooLong || undefined}
        aria-describedby={`${id}-length`}
        {...mention.inputProps}
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart);
          onInput?.(e.target.value);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={(e) => {
          if (mention.onKeyDown(e)) return;
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            submit();
          } else if (e.key === 'Escape') {
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      {mention.list}
      <LengthLimit
        id={`${id}-length`}
        label={NOTE_LABEL}
        length={length}
        max={MAX_NOTE_CHARS}
        from={MAX_NOTE_CHARS * 0.9}
      />
      <div className="note-editor-actions">
        <SubmitOrCancel
          label={submitLabel}
          variant="note-save"
          disabled={text.trim() === '' || tooLong}
          onCancel={onCancel}
        />
      </div>
    </form>
  );
}

/** Above the composer: a new note for this conversation. */
export function NewChatNote({ chatId }: { chatId: number }) {
  const open = useStore((s) => s.noteFormOpen[chatId] ?? false);
  const onTeam = useStore((s) => s.team !== null);
  if (!open) return null;
  const close = () => {
    getState().setNoteFormOpen(chatId, false);
    if (onTeam) reportNoting(chatId, false);
  };
  const kind = onTeam ? 'Team note' : 'Private note';
  return (
    <div
      className={`note-compose${onTeam ? ' is-team' : ''}`}
      role="group"
      aria-label={`New ${kind.toLowerCase()}`}
    >
      <p className="note-header">
        <StickyNote size={14} aria-hidden="true" />
        <span className="note-label">{kind}</span>
        <span className="note-private">
          <Lock size={11} aria-hidden="true" /> {onTeam ? TEAM_LABEL : PRIVATE_LABEL}
        </span>
      </p>
      <NoteEditor
        label={kind}
        submitLabel="Save note"
        onSubmit={async (text) => {
          if (await (onTeam ? addTeamNote(chatId, text) : addNote({ chatId }, text))) close();
        }}
        onCancel={close}
        onInput={onTeam ? (text) => reportNoting(chatId, text !== '') : undefined}
      />
    </div>
  );
}

/** The details panel's notes on the customer's contact. */
export function ContactNotes({ chatId }: { chatId: number }) {
  const context = useStore((s) => s.chatContexts[chatId]);
  const [adding, setAdding] = useState(false);
  const contact = context?.contact;
  if (!contact) return null;
  return (
    <section className="details-section contact-notes" aria-label="Notes on this contact">
      <h3>Notes on {contact.fullName || 'this contact'}</h3>
      <p className="note-private">
        <Lock size={11} aria-hidden="true" /> {PRIVATE_LABEL}
      </p>
      {context.contactNotes.length === 0 && !adding && <p className="muted">No notes yet.</p>}
      <ul className="contact-note-list">
        {context.contactNotes.map((note) => (
          <li key={note.id}>
            <NoteItem note={note} now={Date.now()} highlighted={false} />
          </li>
        ))}
      </ul>
      {adding ? (
        <NoteEditor
          label="Note on this contact"
          submitLabel="Save note"
          onSubmit={async (text) => {
            if (await addNote({ contactId: contact.id }, text)) setAdding(false);
          }}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <button type="button" className="button small" onClick={() => setAdding(true)}>
          <StickyNote size={13} aria-hidden="true" /> Add a note on this contact
        </button>
      )}
    </section>
  );
}
