import { X } from 'lucide-react';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { Contact } from '../../../shared/domain.ts';
import { formatAsYouType, formatHandle, toHandle } from '../../../shared/phone.ts';
import { findContacts } from '../../actions/contacts.ts';
import { useDebounced } from '../../hooks/use-debounced.ts';

export interface Recipient {
  /** E.164 number or lower-cased email. */
  handle: string;
  /** A contact's name when one matched. */
  name: string | null;
  /** Set when the core refused this recipient. */
  error?: string;
}

export type ImessageHint = 'checking' | 'yes' | 'no' | 'unknown';

/**
 * Recipients as tokens: type a number (formatted and normalized to E.164 as you type), an email,
 * or a name (contacts autocomplete). Enter, comma or Tab adds; Backspace on empty removes the last.
 */
export function RecipientField({
  recipients,
  hints,
  onChange,
  invalidText,
}: {
  recipients: Recipient[];
  hints: Record<string, ImessageHint>;
  onChange(recipients: Recipient[]): void;
  invalidText: string | null;
}) {
  const [text, setText] = useState('');
  const [suggestions, setSuggestions] = useState<Contact[]>([]);
  const [active, setActive] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const listId = useId();
  const query = useDebounced(text.trim(), 120);
  const normalized = text.trim() ? toHandle(text) : null;

  useEffect(() => {
    let live = true;
    // Digits alone are a number being typed, not a name: no contact lookup until there are letters.
    if (query.length < 2) {
      setSuggestions([]);
      return;
    }
    void findContacts(query, 6)
      .then((contacts) => live && setSuggestions(contacts.filter((c) => c.phoneNumber || c.email)))
      .catch(() => live && setSuggestions([]));
    return () => {
      live = false;
    };
  }, [query]);

  const add = (handle: string, name: string | null) => {
    setText('');
    setSuggestions([]);
    setProblem(null);
    if (recipients.some((r) => r.handle === handle)) return;
    onChange([...recipients, { handle, name }]);
  };

  const addTyped = (): boolean => {
    if (!text.trim()) return false;
    if (!normalized) {
      setProblem(`“${text.trim()}” is not a phone number or email address`);
      return true;
    }
    add(normalized, null);
    return true;
  };

  const pick = (contact: Contact) => {
    const handle = toHandle(contact.phoneNumber) ?? toHandle(contact.email);
    if (handle) add(handle, contact.fullName || null);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const suggestion = suggestions[active];
    if (event.key === 'ArrowDown' && suggestions.length) {
      event.preventDefault();
      setActive((active + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp' && suggestions.length) {
      event.preventDefault();
      setActive((active - 1 + suggestions.length) % suggestions.length);
    } else if (event.key === 'Enter' || event.key === ',' || (event.key === 'Tab' && text.trim())) {
      if (suggestion && !normalized) {
        event.preventDefault();
        pick(suggestion);
      } else if (addTyped()) event.preventDefault();
    } else if (event.key === 'Backspace' && text === '' && recipients.length > 0) {
      onChange(recipients.slice(0, -1));
    }
  };

  return (
    <div className="recipient-field">
      <div className={`token-input${invalidText || problem ? ' is-invalid' : ''}`}>
        {recipients.map((r) => (
          <span key={r.handle} className={`token${r.error ? ' is-invalid' : ''}`} title={r.error ?? r.handle}>
            <span>{r.name ?? formatHandle(r.handle)}</span>
            <ImessageBadge hint={hints[r.handle]} />
            <button
              type="button"
              className="token-remove"
              aria-label={`Remove ${r.name ?? r.handle}`}
              onClick={() => onChange(recipients.filter((x) => x.handle !== r.handle))}
            >
              <X size={11} />
            </button>
          </span>
        ))}
        <input
          id="new-chat-recipients"
          role="combobox"
          aria-expanded={suggestions.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={suggestions[active] ? `${listId}-${suggestions[active].id}` : undefined}
          aria-invalid={Boolean(invalidText || problem)}
          aria-describedby="new-chat-recipients-hint"
          placeholder={recipients.length ? 'Add another…' : 'Name, phone number or email'}
          value={text}
          onChange={(e) => {
            const value = e.target.value;
            // Numbers are formatted as they are typed; names and emails are left alone.
            setText(/^[+\d\s().-]*$/.test(value) && !value.endsWith(' ') ? formatAsYouType(value) : value);
            setActive(0);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            if (normalized) addTyped();
          }}
          data-autofocus
        />
      </div>
      {/* The suggestions drop over this line; the hint returns when they close. */}
      <div
        id="new-chat-recipients-hint"
        style={suggestions.length > 0 ? { visibility: 'hidden' } : undefined}
        className={problem || invalidText ? 'field-error' : 'field-hint'}
      >
        {problem ??
          invalidText ??
          (text.trim()
            ? normalized
              ? `Press Enter to add ${normalized}`
              : 'Keep typing a number, an email or a contact’s name'
            : 'Several recipients make a group conversation.')}
      </div>
      {suggestions.length > 0 && (
        <ul id={listId} role="listbox" className="suggestions" aria-label="Matching contacts">
          {suggestions.map((c, i) => (
            <li
              key={c.id}
              id={`${listId}-${c.id}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'is-active' : ''}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
            >
              <span>{c.fullName || c.email}</span>
              <span className="muted">{c.phoneNumber ? formatHandle(c.phoneNumber) : c.email}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ImessageBadge({ hint }: { hint: ImessageHint | undefined }) {
  if (!hint) return null;
  const text = { checking: '…', yes: 'iMessage', no: 'SMS', unknown: '?' }[hint];
  const title = {
    checking: 'Checking iMessage availability',
    yes: 'Can receive iMessage',
    no: 'No iMessage: the conversation will use SMS or RCS',
    unknown: 'iMessage availability unknown right now (the service limits checks)',
  }[hint];
  return (
    <span className={`token-hint is-${hint}`} title={title} aria-label={title}>
      {text}
    </span>
  );
}
