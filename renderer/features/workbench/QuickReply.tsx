import { useEffect, useRef, useState } from 'react';
import type { Message } from '../../../shared/domain.ts';
import { chatDetails, recentMessages } from '../../actions/chats.ts';
import { sendQuickReply } from '../../actions/workbench.ts';
import { chatTitle } from '../../lib/chat-presentation.ts';
import { loadPhoneFormat } from '../../lib/phone-format.ts';
import { errorText } from '../../lib/errors.ts';

/**
 * The quick-reply window's page (Electron on Linux, where notifications take no reply): the
 * conversation's last messages and a composer. Enter sends through the outbox (the core marks the
 * chat read) and closes the window; Esc closes it without sending.
 */
export function QuickReply({ chatId }: { chatId: number }) {
  const [title, setTitle] = useState('');
  const [messages, setMessages] = useState<Message[]>([]);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    void Promise.all([chatDetails(chatId), loadPhoneFormat()]).then(([details]) => {
      if (details) setTitle(chatTitle(details.chat));
    });
    void recentMessages(chatId, 5)
      .then(setMessages)
      .catch((e: unknown) => setProblem(errorText(e)));
    input.current?.focus();
  }, [chatId]);

  const send = async () => {
    if (text.trim() === '' || sending) return;
    setSending(true);
    try {
      await sendQuickReply(chatId, text);
      window.close();
    } catch (error) {
      setProblem(errorText(error));
      setSending(false);
    }
  };

  return (
    <main className="quick-reply" aria-label={`Quick reply to ${title || 'conversation'}`}>
      <h1 className="quick-reply-title">{title || 'Quick reply'}</h1>
      <ol className="quick-reply-messages" aria-label="Last messages">
        {messages.map((m) => (
          <li key={m.key} className={m.fromMe ? 'is-mine' : 'is-theirs'}>
            <span className="visually-hidden">{m.fromMe ? 'You: ' : 'Them: '}</span>
            {m.text || `${m.attachments.length} attachment${m.attachments.length === 1 ? '' : 's'}`}
          </li>
        ))}
      </ol>
      <form
        className="quick-reply-form"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <label className="visually-hidden" htmlFor="quick-reply-input">
          Reply
        </label>
        <textarea
          id="quick-reply-input"
          ref={input}
          value={text}
          placeholder="Reply… (Enter sends, Esc closes)"
          aria-invalid={problem !== null}
          aria-describedby={problem ? 'quick-reply-problem' : undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
            if (e.key === 'Escape') window.close();
          }}
        />
        <button type="submit" className="button primary" disabled={sending || text.trim() === ''}>
          Send
        </button>
        {problem && (
          <p id="quick-reply-problem" className="field-error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </main>
  );
}
