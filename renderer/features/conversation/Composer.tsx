import { Link as LinkIcon, MessageSquareText, Paperclip, SendHorizontal, StickyNote, X } from 'lucide-react';
import { Suspense, useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { isSendable } from '../../../shared/message-rules.ts';
import { unfilledVariables } from '../../../shared/workbench.ts';
import { previewUrl } from '../../actions/resources.ts';
import {
  addAttachmentUrl,
  addFiles,
  dismissNotices,
  removeAttachment,
  removeAttachmentUrl,
  setDraftText,
} from '../../actions/composer.ts';
import { sendDraft } from '../../actions/messages.ts';
import { AttachmentChip, UrlChip } from '../../components/AttachmentChip.tsx';
import { Spinner } from '../../components/EmptyState.tsx';
import { ACCEPT_ATTRIBUTE } from '../../lib/attachment-rules.ts';
import { lazyNamed } from '../../lib/lazy.ts';
import { mark } from '../../lib/perf.ts';
import { useStore } from '../../store/index.ts';
import { EMPTY_DRAFT } from '../../store/composer-slice.ts';
import { reachabilityOf } from '../../store/workspace-slice.ts';
import { loadChatContext } from '../../actions/workbench.ts';
import { useCannedPicker } from '../workbench/CannedPicker.tsx';
import { NewChatNote } from '../workbench/Notes.tsx';
import { UnfilledVariables } from '../workbench/UnfilledVariables.tsx';
import { sendPermission } from '../../lib/standing.ts';
import { chatCapabilities } from '../../store/capabilities.ts';
import { ComposerNotices } from './ComposerNotices.tsx';
import { SendOptions } from './SendOptions.tsx';
import { sendWithUndo } from '../../actions/scheduled.ts';
import { ScheduledStrip } from '../workbench/ScheduledStrip.tsx';
import { SendLaterButton } from '../workbench/SendLaterButton.tsx';
import { ComposerGate, useComposerOwner } from '../team/ComposerGate.tsx';
import { HeldSend } from '../team/HeldSend.tsx';
import { reportComposing } from '../../actions/team.ts';
import { IconButton } from '../../components/IconButton.tsx';
import { SubmitOrCancel } from '../../components/SubmitOrCancel.tsx';

// The SMS counter (Twilio's calculator and a grapheme splitter) loads with the first SMS text typed.
const SegmentCounter = lazyNamed(() => import('../../components/SegmentCounter.tsx'), 'SegmentCounter');

/** Where the agent writes: Enter sends, Shift+Enter breaks the line; files by picker, paste or drop. */
export function Composer({ chatId, service, title }: { chatId: number; service: string; title: string }) {
  const draft = useStore((s) => s.drafts[chatId] ?? EMPTY_DRAFT);
  const offline = useStore((s) => reachabilityOf(s) === 'offline');
  const focusRequest = useStore((s) => s.editing === null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [linkOpen, setLinkOpen] = useState(false);
  const picker = useCannedPicker(chatId, draft.text);
  const unfilled = unfilledVariables(draft.text);
  const chat = useStore((s) => s.chatsById[chatId]);
  const line = useStore((s) => s.lines.find((l) => l.id === chat?.lineId)) ?? null;
  const capabilities = useStore(chatCapabilities(chatId));
  const sendable = chat ? sendPermission(chat) : { allowed: true as const };
  const owner = useComposerOwner(chatId);
  const onTeam = useStore((s) => s.team !== null);

  // The customer's contact and the line fill canned replies' variables.
  useEffect(() => void loadChatContext(chatId), [chatId]);

  // A new chat (or the end of an edit) puts the cursor here, ready to type.
  useEffect(() => {
    if (focusRequest) textarea.current?.focus({ preventScroll: true });
  }, [chatId, focusRequest]);

  const undoSeconds = useStore((s) => s.workbenchSettings.undoSeconds);
  const send = () => {
    if (!sendable.allowed) return;
    // With undo send on, the message first waits out its grace period in the thread.
    void (undoSeconds > 0 && chatId > 0 ? sendWithUndo(chatId) : sendDraft(chatId));
    textarea.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (picker.onKeyDown(event)) return;
    if (event.key === '/' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      picker.show();
      return;
    }
    // Enter while an IME is composing confirms the composition; it must not send.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      mark('send-enter', chatId, event.timeStamp);
      send();
    }
  };

  const onPaste = (event: ClipboardEvent) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0) return;
    event.preventDefault();
    void addFiles(
      chatId,
      files.map((file, i) => namePasted(file, i)),
    );
  };

  const empty = !isSendable({
    text: draft.text,
    attachmentCount: draft.attachments.length + draft.attachmentUrls.length,
  });
  const hasAttachments = draft.attachments.length > 0 || draft.attachmentUrls.length > 0 || draft.staging > 0;

  if (owner !== null) return <ComposerGate chatId={chatId} owner={owner} />;
  if (!sendable.allowed)
    return (
      <div className="composer is-blocked">
        <p className="composer-blocked" role="status">
          {sendable.reason}
        </p>
      </div>
    );

  return (
    <div className="composer">
      {chat && <ComposerNotices chat={chat} line={line} />}
      <ScheduledStrip chatId={chatId} />
      <HeldSend chatId={chatId} />
      {draft.notices.length > 0 && (
        <div className="composer-notices" role="alert">
          <ul>
            {draft.notices.map((notice, i) => (
              <li key={i}>{notice}</li>
            ))}
          </ul>
          <IconButton className="small" label="Dismiss" onClick={() => dismissNotices(chatId)}>
            <X size={13} />
          </IconButton>
        </div>
      )}
      {hasAttachments && (
        <div className="composer-attachments" aria-label="Attachments" role="group">
          {draft.attachments.map((a) => (
            <AttachmentChip
              key={a.id}
              attachment={a}
              previewSrc={previewUrl(a.previewUrl)}
              onRemove={() => removeAttachment(chatId, a.id)}
            />
          ))}
          {draft.attachmentUrls.map((url) => (
            <UrlChip key={url} url={url} onRemove={() => removeAttachmentUrl(chatId, url)} />
          ))}
          {draft.staging > 0 && (
            <div className="attachment-chip is-pending">
              <Spinner label="Uploading" /> Uploading {draft.staging} {draft.staging === 1 ? 'file' : 'files'}
              …
            </div>
          )}
        </div>
      )}
      {linkOpen && (
        <LinkField
          onAdd={(url) => {
            const problem = addAttachmentUrl(chatId, url);
            if (!problem) setLinkOpen(false);
            return problem;
          }}
          onClose={() => {
            setLinkOpen(false);
            textarea.current?.focus();
          }}
        />
      )}
      <NewChatNote chatId={chatId} />
      {picker.list}
      {unfilled.length > 0 && <UnfilledVariables id={`unfilled-${chatId}`} variables={unfilled} />}
      <div className="composer-box">
        <IconButton
          label="Attach files"
          title="Attach files (JPEG, PNG, GIF, HEIC, MP4, MOV, PDF, vCard, text; up to 100 MB)"
          onClick={() => fileInput.current?.click()}
        >
          <Paperclip size={17} />
        </IconButton>
        <IconButton
          label="Attach a link"
          title="Attach a file by its web address"
          aria-expanded={linkOpen}
          onClick={() => setLinkOpen((open) => !open)}
        >
          <LinkIcon size={16} />
        </IconButton>
        <IconButton
          label="Insert a canned reply"
          title="Insert a canned reply (/ at the start, or Ctrl/⌘ /)"
          onClick={() => {
            picker.show();
            textarea.current?.focus();
          }}
        >
          <MessageSquareText size={16} />
        </IconButton>
        <IconButton
          className="note-button"
          label={onTeam ? 'Add a team note' : 'Add a private note'}
          title={
            onTeam
              ? 'Add a team note (your team sees it, never the customer; @name tells a teammate)'
              : 'Add a private note (only you can see it)'
          }
          onClick={() => useStore.getState().setNoteFormOpen(chatId, true)}
        >
          <StickyNote size={16} />
        </IconButton>
        <input
          ref={fileInput}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          hidden
          onChange={(e) => {
            void addFiles(chatId, [...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <textarea
          ref={textarea}
          className="composer-input"
          aria-label={`Message ${title}`}
          placeholder={`Message ${title} via ${service}`}
          rows={1}
          value={draft.text}
          aria-controls={picker.open ? picker.listId : undefined}
          aria-activedescendant={picker.activeId}
          aria-invalid={unfilled.length > 0 || undefined}
          aria-describedby={unfilled.length > 0 ? `unfilled-${chatId}` : undefined}
          onChange={(e) => {
            setDraftText(chatId, e.target.value);
            reportComposing(chatId, e.target.value !== '');
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {chatId > 0 && (
          <SendLaterButton chatId={chatId} disabled={empty || draft.staging > 0 || unfilled.length > 0} />
        )}
        <button
          type="button"
          className="send-button"
          aria-label="Send"
          title="Send (Enter)"
          disabled={empty || draft.staging > 0 || unfilled.length > 0}
          onClick={send}
        >
          <SendHorizontal size={17} />
        </button>
      </div>
      {chat && chatId > 0 && <SendOptions chat={chat} capabilities={capabilities} />}
      <div className="composer-footer">
        <span className="hint">
          {offline
            ? 'Offline: messages are queued and sent when Parley reconnects'
            : 'Enter to send · Shift+Enter for a new line · / for canned replies'}
        </span>
        {service === 'SMS' && draft.text !== '' && (
          <Suspense fallback={null}>
            <SegmentCounter text={draft.text} />
          </Suspense>
        )}
      </div>
    </div>
  );
}

function LinkField({ onAdd, onClose }: { onAdd(url: string): string | null; onClose(): void }) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="composer-link"
      onSubmit={(e) => {
        e.preventDefault();
        setProblem(onAdd(value));
      }}
    >
      <label className="visually-hidden" htmlFor="composer-link-input">
        Attachment link
      </label>
      <input
        id="composer-link-input"
        type="url"
        autoFocus
        placeholder="https://example.com/photo.jpg"
        value={value}
        aria-invalid={problem !== null}
        aria-describedby={problem ? 'composer-link-problem' : undefined}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      />
      <SubmitOrCancel label="Add link" onCancel={onClose} />
      {problem && (
        <span id="composer-link-problem" className="field-error">
          {problem}
        </span>
      )}
    </form>
  );
}

/** Pasted screenshots all arrive as "image.png": give each a distinct, dated name. */
function namePasted(file: File, index: number): File {
  if (file.name && file.name !== 'image.png') return file;
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const ext = file.type === 'image/jpeg' ? 'jpg' : file.type === 'image/gif' ? 'gif' : 'png';
  return new File([file], `Pasted ${stamp}${index ? `-${index + 1}` : ''}.${ext}`, { type: file.type });
}
