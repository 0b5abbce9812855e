import { Paperclip } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import type { StagedAttachment } from '../../../shared/contract/views.ts';
import { formatHandle, isEmailHandle, toHandle } from '../../../shared/phone.ts';
import { stageFiles, unstageFiles } from '../../actions/composer.ts';
import { previewUrl } from '../../actions/resources.ts';
import { selectChat, startChat, trackProvisionalChat } from '../../actions/chats.ts';
import { checkImessage } from '../../actions/lines.ts';
import { AttachmentChip } from '../../components/AttachmentChip.tsx';
import { LengthLimit, lengthProblem } from '../../components/LengthLimit.tsx';
import { MAX_GROUP_NAME_CHARS } from '../../../shared/contract/limits.ts';
import { Modal } from '../../components/Modal.tsx';
import { ACCEPT_ATTRIBUTE, partitionFiles, stagingFailureText } from '../../lib/attachment-rules.ts';
import { errorText, toErrorShape } from '../../lib/errors.ts';
import { getState, useStore } from '../../store/index.ts';
import { RecipientField, type ImessageHint, type Recipient } from './RecipientField.tsx';
import { LabeledInput, LabeledTextarea } from '../../components/FormField.tsx';

/** Ctrl/⌘ N: from which line, to whom, and the first message. An existing chat opens instead. */
export function NewChatDialog() {
  const lines = useStore((s) => s.lines);
  const prefill = useStore((s) => s.newChatPrefill);
  const filterLine = useStore((s) => s.chatFilter.lineId);
  const close = () => getState().setOverlay(null);
  const [lineId, setLineId] = useState<number | null>(prefill?.lineId ?? filterLine ?? lines[0]?.id ?? null);
  const [recipients, setRecipients] = useState<Recipient[]>(() =>
    (prefill?.recipients ?? []).flatMap((raw) => {
      const handle = toHandle(raw);
      return handle ? [{ handle, name: null }] : [];
    }),
  );
  const [groupName, setGroupName] = useState('');
  const [text, setText] = useState('');
  const [attachments, setAttachments] = useState<StagedAttachment[]>([]);
  const [notices, setNotices] = useState<string[]>([]);
  const [hints, setHints] = useState<Record<string, ImessageHint>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (lineId === null && lines[0]) setLineId(lines[0].id);
  }, [lineId, lines]);

  // iMessage availability per recipient: the core caches, and the service allows few checks,
  // so each handle is asked once, after the agent paused typing.
  useEffect(() => {
    const unchecked = recipients.filter((r) => hints[r.handle] === undefined);
    if (unchecked.length === 0) return;
    const timer = setTimeout(() => {
      for (const r of unchecked) {
        setHints((h) => ({ ...h, [r.handle]: 'checking' }));
        checkImessage(r.handle)
          .then((available) =>
            setHints((h) => ({
              ...h,
              [r.handle]: available === null ? 'unknown' : available ? 'yes' : 'no',
            })),
          )
          .catch(() => setHints((h) => ({ ...h, [r.handle]: 'unknown' })));
      }
    }, 500);
    return () => clearTimeout(timer);
  }, [recipients, hints]);

  const addFiles = async (files: File[]) => {
    const { accepted, rejected } = partitionFiles(files, attachments.length);
    setNotices(rejected);
    // One at a time: a refused file must not take the others down with it.
    for (const file of accepted) {
      try {
        const staged = await stageFiles([file]);
        setAttachments((a) => [...a, ...staged]);
      } catch (e) {
        setNotices((n) => [...n, stagingFailureText(file.name, errorText(e))]);
      }
    }
  };

  const submit = async () => {
    setError(null);
    if (lineId === null) return setError('Choose the line to send from.');
    if (recipients.length === 0) return setError('Add at least one recipient.');
    if (!text.trim() && attachments.length === 0)
      return setError('Write the first message or attach a file.');
    const nameProblem = lengthProblem('the group name', groupName.trim().length, MAX_GROUP_NAME_CHARS);
    if (nameProblem) return setError(nameProblem);
    setBusy(true);
    try {
      const result = await startChat({
        lineId,
        recipients: recipients.map((r) => r.handle),
        text: text.trim(),
        stagedIds: attachments.map((a) => a.id),
        ...(recipients.length > 1 && groupName.trim() ? { displayName: groupName.trim() } : {}),
      });
      trackProvisionalChat(result.chatId, result.messageKey);
      close();
      selectChat(result.chatId);
    } catch (e) {
      const shape = toErrorShape(e);
      const index = /^recipients\.(\d+)$/.exec(shape.field ?? '')?.[1];
      if (index !== undefined)
        setRecipients((rs) => rs.map((r, i) => (i === Number(index) ? { ...r, error: shape.message } : r)));
      setError(shape.message);
      setBusy(false);
    }
  };

  const lineOptions = lines.map((line) => ({
    id: line.id,
    label: `${formatHandle(line.phoneNumber)}${line.userName ? ` — ${line.userName}` : ''}`,
  }));
  const onlyEmails = recipients.length > 0 && recipients.every((r) => isEmailHandle(r.handle));

  return (
    <Modal title="New conversation" onClose={close} width={560}>
      <form
        className="form new-chat-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field">
          <label htmlFor="new-chat-line">From</label>
          <select
            id="new-chat-line"
            className="select"
            value={lineId ?? ''}
            onChange={(e) => setLineId(Number(e.target.value))}
          >
            {lineOptions.map((o) => (
              <option key={o.id} value={o.id}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="new-chat-recipients">To</label>
          <RecipientField
            recipients={recipients}
            hints={hints}
            onChange={(next) => {
              setRecipients(next);
              setError(null);
            }}
            invalidText={recipients.find((r) => r.error)?.error ?? null}
          />
          {onlyEmails && <p className="field-hint">Email addresses can only be reached over iMessage.</p>}
        </div>
        {recipients.length > 1 && (
          <LabeledInput
            id="new-chat-name"
            label="Group name (optional)"
            value={groupName}
            aria-invalid={groupName.trim().length > MAX_GROUP_NAME_CHARS}
            aria-describedby="new-chat-name-limit"
            placeholder="e.g. Kitchen remodel"
            onChange={(e) => setGroupName(e.target.value)}
          >
            <LengthLimit
              id="new-chat-name-limit"
              label="the group name"
              length={groupName.trim().length}
              max={MAX_GROUP_NAME_CHARS}
              from={80}
            />
          </LabeledInput>
        )}
        <LabeledTextarea
          id="new-chat-text"
          label="Message"
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onPaste={(e) => {
            const files = [...e.clipboardData.files];
            if (files.length) {
              e.preventDefault();
              void addFiles(files);
            }
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
              e.preventDefault();
              void submit();
            }
          }}
        />
        {notices.length > 0 && (
          <ul className="composer-notices is-inline" role="alert">
            {notices.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        )}
        {attachments.length > 0 && (
          <div className="composer-attachments">
            {attachments.map((a) => (
              <AttachmentChip
                key={a.id}
                attachment={a}
                previewSrc={previewUrl(a.previewUrl)}
                onRemove={() => {
                  setAttachments((list) => list.filter((x) => x.id !== a.id));
                  unstageFiles([a.id]);
                }}
              />
            ))}
          </div>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="modal-footer">
          <button type="button" className="button ghost" onClick={() => fileInput.current?.click()}>
            <Paperclip size={14} aria-hidden="true" /> Attach
          </button>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            accept={ACCEPT_ATTRIBUTE}
            onChange={(e) => {
              void addFiles([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
          <span className="spacer" />
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
