import { Copy, Share2, X } from 'lucide-react';
import { useState } from 'react';
import { shareContactCard, v3MigrationId } from '../../actions/chats.ts';
import { copyText } from '../../actions/messages.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { CallRecord } from '../../components/CallRecord.tsx';
import { Spinner } from '../../components/EmptyState.tsx';
import { ServiceBadge } from '../../components/ServiceBadge.tsx';
import { chatTitle, customerHandles, handleLabel } from '../../lib/chat-presentation.ts';
import { usePhoneFormat } from '../../lib/phone-format.ts';
import { errorText } from '../../lib/errors.ts';
import { getState, useStore } from '../../store/index.ts';
import { ContactNotes } from '../workbench/Notes.tsx';
import { versionText } from '../../lib/capabilities.ts';
import { standingText } from '../../lib/standing.ts';
import { chatCapabilities, workspaceVersionOf } from '../../store/capabilities.ts';

/** Everything about the open chat: people, service, line, counts, V3 id, share the contact card. */
export function DetailsPanel({ chatId }: { chatId: number }) {
  const chat = useStore((s) => s.chatsById[chatId]);
  const details = useStore((s) => s.details[chatId]);
  const line = useStore((s) => s.lines.find((l) => l.id === chat?.lineId)) ?? details?.line ?? null;
  const [migration, setMigration] = useState<{ state: 'idle' | 'loading' | 'done' | 'error'; text?: string }>(
    {
      state: 'idle',
    },
  );
  const [share, setShare] = useState<{ state: 'idle' | 'loading' | 'done' | 'error'; text?: string }>({
    state: 'idle',
  });
  const workspaceVersion = useStore(workspaceVersionOf);
  const capabilities = useStore(chatCapabilities(chatId));
  const formatHandle = usePhoneFormat();
  if (!chat) return null;

  const v3 = chat.v3ChatId ?? (migration.state === 'done' ? migration.text : undefined);
  const lookUp = async () => {
    setMigration({ state: 'loading' });
    try {
      const v3ChatId = await v3MigrationId(chatId);
      setMigration(
        v3ChatId
          ? { state: 'done', text: v3ChatId }
          : { state: 'error', text: 'The service cannot migrate this chat (no V3 ID).' },
      );
    } catch (error) {
      setMigration({ state: 'error', text: errorText(error) });
    }
  };
  const shareCard = async () => {
    setShare({ state: 'loading' });
    try {
      await shareContactCard(chatId);
      setShare({ state: 'done', text: 'Contact card shared.' });
    } catch (error) {
      setShare({ state: 'error', text: errorText(error) });
    }
  };

  return (
    <aside className="details-panel" aria-label="Conversation details">
      <div className="details-header">
        <h2>Details</h2>
        <button
          type="button"
          className="icon-button"
          aria-label="Close details"
          onClick={() => getState().setDetailsOpen(false)}
        >
          <X size={16} />
        </button>
      </div>
      <div className="details-hero">
        <Avatar name={chatTitle(chat)} group={chat.isGroup} size={48} />
        <p className="details-name">{chatTitle(chat)}</p>
        <ServiceBadge service={chat.service} />
      </div>
      <section className="details-section">
        <h3>{chat.isGroup ? 'Participants' : 'Customer'}</h3>
        <ul className="participants">
          {customerHandles(chat).map((handle) => (
            <li key={handle.id}>
              <Avatar name={handleLabel(handle)} size={26} />
              <span className="participant-text">
                <span className="participant-name">{handle.contactName ?? 'Not a contact'}</span>
                <span className="participant-id">
                  {formatHandle(handle.identifier)} · {handle.service}
                </span>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <ContactNotes chatId={chatId} />
      <section className="details-section">
        <h3>Conversation</h3>
        <dl className="details-list">
          <dt>Service</dt>
          <dd>{chat.service}</dd>
          <dt>Line</dt>
          <dd>
            {line ? formatHandle(line.phoneNumber) : '—'}
            {line?.userName ? <span className="muted"> · {line.userName}</span> : null}
          </dd>
          <dt>API version</dt>
          <dd>{versionText(workspaceVersion)}</dd>
          {capabilities.standing && (
            <>
              <dt>Chat health</dt>
              <dd>{standingText(chat.health?.status)}</dd>
              <dt>Line reputation</dt>
              <dd>{standingText(line?.reputation?.status)}</dd>
            </>
          )}
          <dt>Messages</dt>
          <dd>{chat.messageCount === null ? 'Not counted yet' : chat.messageCount.toLocaleString()}</dd>
          <dt>Chat ID</dt>
          <dd>{chatId > 0 ? chatId : 'Not created yet'}</dd>
          <dt>V3 chat ID</dt>
          <dd>
            {v3 ? (
              <span className="copyable">
                <code>{v3}</code>
                <button
                  type="button"
                  className="icon-button small"
                  aria-label="Copy V3 chat ID"
                  onClick={() => void copyText(v3)}
                >
                  <Copy size={13} />
                </button>
              </span>
            ) : migration.state === 'loading' ? (
              <Spinner label="Looking up the V3 chat ID" />
            ) : (
              <button
                type="button"
                className="link-button"
                onClick={() => void lookUp()}
                disabled={chatId < 0}
              >
                Look up
              </button>
            )}
            {migration.state === 'error' && <span className="field-error">{migration.text}</span>}
          </dd>
        </dl>
      </section>
      <section className="details-section">
        <button
          type="button"
          className="button"
          onClick={() => void shareCard()}
          disabled={share.state === 'loading' || chatId < 0}
        >
          <Share2 size={14} aria-hidden="true" /> Share your contact card
        </button>
        {share.text && (
          <p className={share.state === 'error' ? 'field-error' : 'field-success'} role="status">
            {share.text}
          </p>
        )}
      </section>
      {details && details.calls.length > 0 && (
        <section className="details-section">
          <h3>Calls</h3>
          {details.calls.map((call) => (
            <CallRecord key={call.id} call={call} />
          ))}
        </section>
      )}
    </aside>
  );
}
