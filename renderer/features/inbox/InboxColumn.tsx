import { X } from 'lucide-react';
import { Suspense, useEffect, useRef } from 'react';
import { KNOWN_SERVICES } from '../../../shared/domain.ts';
import { setChatFilter } from '../../actions/chats.ts';
import { clearSearch, setSearchQuery } from '../../actions/search.ts';
import { SearchField } from '../../components/ResultList.tsx';
import { lazyNamed } from '../../lib/lazy.ts';
import { useStore } from '../../store/index.ts';
import { ChatList } from './ChatList.tsx';

// Search results load on demand (their own chunk, with the highlighting and note results).
const SearchResultsList = lazyNamed(() => import('./SearchResultsList.tsx'), 'SearchResultsList');
// The assignment views load only on a workspace joined to a relay.
const TeamViews = lazyNamed(() => import('../team/TeamViews.tsx'), 'TeamViews');

/** The middle column: search, the unread and service filters, and the list (or search results). */
export function InboxColumn() {
  const query = useStore((s) => s.search.query);
  const filter = useStore((s) => s.chatFilter);
  const focusRequest = useStore((s) => s.searchFocusRequest);
  const onTeam = useStore((s) => s.team !== null);
  const lineName = useStore((s) => {
    if (s.chatFilter.lineId === null) return null;
    const line = s.lines.find((l) => l.id === s.chatFilter.lineId);
    return line?.userName ?? line?.phoneNumber ?? null;
  });
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (focusRequest > 0) input.current?.focus();
  }, [focusRequest]);

  return (
    <section className="inbox-column" aria-label="Inbox">
      <div className="inbox-header">
        <div className="inbox-title-row">
          <h1 className="inbox-title">{filter.archived ? 'Archived' : 'Inbox'}</h1>
          {lineName && (
            <button
              type="button"
              className="filter-pill is-on"
              aria-label={`Showing line ${lineName}; show all lines`}
              onClick={() => setChatFilter({ lineId: null })}
            >
              {lineName} <X size={12} aria-hidden="true" />
            </button>
          )}
        </div>
        <SearchField
          inputRef={input}
          label="Search conversations, contacts and messages"
          placeholder="Search"
          value={query}
          onChange={(e) => setSearchQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && query) {
              e.stopPropagation();
              clearSearch();
            }
          }}
        />
        {!query && onTeam && (
          <Suspense fallback={null}>
            <TeamViews />
          </Suspense>
        )}
        {!query && (
          <div className="filter-row" role="group" aria-label="Filters">
            <div className="segmented" role="radiogroup" aria-label="Show">
              <button
                type="button"
                role="radio"
                aria-checked={!filter.unreadOnly}
                className={!filter.unreadOnly ? 'is-on' : ''}
                onClick={() => setChatFilter({ unreadOnly: false })}
              >
                All
              </button>
              <button
                type="button"
                role="radio"
                aria-checked={filter.unreadOnly}
                className={filter.unreadOnly ? 'is-on' : ''}
                onClick={() => setChatFilter({ unreadOnly: true })}
              >
                Unread
              </button>
            </div>
            <label className="visually-hidden" htmlFor="service-filter">
              Service
            </label>
            <select
              id="service-filter"
              className="select small"
              value={filter.service ?? ''}
              onChange={(e) => setChatFilter({ service: e.target.value || null })}
            >
              <option value="">All services</option>
              {KNOWN_SERVICES.map((service) => (
                <option key={service} value={service}>
                  {service}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {query ? (
        <Suspense
          fallback={
            <div className="view-loading" role="status" aria-live="polite">
              <span className="visually-hidden">Searching…</span>
            </div>
          }
        >
          <SearchResultsList />
        </Suspense>
      ) : (
        <ChatList />
      )}
    </section>
  );
}
