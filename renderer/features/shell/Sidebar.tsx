import { Archive, ChevronsUpDown, Contact, Inbox, Phone, Plus, Settings } from 'lucide-react';
import { WorkbenchNav } from '../workbench/WorkbenchNav.tsx';
import { initials } from '../../lib/chat-presentation.ts';
import { usePhoneFormat } from '../../lib/phone-format.ts';
import { setChatFilter } from '../../actions/chats.ts';
import { loadContacts } from '../../actions/contacts.ts';
import { getState, useStore } from '../../store/index.ts';
import { unreadTotal } from '../../store/lines-slice.ts';
import type { View } from '../../store/ui-slice.ts';
import { LiveIndicator } from './LiveIndicator.tsx';
import { NavItem } from './NavItem.tsx';
import { Suspense } from 'react';
import { lazyNamed } from '../../lib/lazy.ts';

// Only a workspace joined to a relay has a team: its list loads when there is one.
const TeamList = lazyNamed(() => import('../team/TeamList.tsx'), 'TeamList');

function goTo(view: View): void {
  const s = getState();
  s.setView(view);
  if (view === 'contacts' && s.contactsStatus === 'idle') void loadContacts();
}

/** The left rail: workspace, new conversation, inbox with its lines, and the other views. */
export function Sidebar() {
  const view = useStore((s) => s.view);
  const lines = useStore((s) => s.lines);
  const filter = useStore((s) => s.chatFilter);
  const workspace = useStore((s) => s.workspaces.find((w) => w.id === s.activeWorkspaceId));
  const onTeam = useStore((s) => s.team !== null);
  const total = unreadTotal(lines);
  const formatHandle = usePhoneFormat();

  const showInbox = (patch: Parameters<typeof setChatFilter>[0]) => {
    goTo('inbox');
    setChatFilter(patch);
  };

  return (
    <nav className="sidebar" aria-label="Main">
      <button
        type="button"
        className="workspace-button"
        onClick={() => goTo('settings')}
        title="Workspaces and settings"
        aria-label={`Workspace: ${workspace?.name ?? ''}`}
      >
        <span className="workspace-mark" aria-hidden="true">
          {(workspace?.name ?? 'P').slice(0, 1).toUpperCase()}
        </span>
        <span className="workspace-name">
          <span>{workspace?.name ?? 'Parley'}</span>
          <span className="workspace-kind">
            {workspace?.kind === 'demo' ? 'Simulated demo' : 'Workspace'}
          </span>
        </span>
        <ChevronsUpDown size={14} aria-hidden="true" />
      </button>

      <button
        type="button"
        className="button primary new-chat-button"
        onClick={() => getState().setOverlay('newChat')}
        title="New conversation (C)"
      >
        <Plus size={15} aria-hidden="true" /> <span className="new-chat-label">New conversation</span>
      </button>

      <ul className="nav-list">
        <NavItem
          icon={Inbox}
          label="Inbox"
          active={view === 'inbox' && !filter.archived && filter.lineId === null}
          onClick={() => showInbox({ archived: false, lineId: null })}
        >
          {total > 0 && (
            <span className="nav-count" aria-label={`${total} unread`}>
              {total}
            </span>
          )}
        </NavItem>
        <NavItem
          icon={Archive}
          label="Archived"
          active={view === 'inbox' && filter.archived}
          onClick={() => showInbox({ archived: true, lineId: null })}
        />
        <WorkbenchNav />
      </ul>

      {lines.length > 0 && (
        <div className="nav-section">
          <h2 className="section-label">Lines</h2>
          <ul className="nav-list">
            {lines.map((line) => {
              const active = view === 'inbox' && filter.lineId === line.id;
              return (
                <li key={line.id}>
                  <button
                    type="button"
                    className={`nav-item line-item${active ? ' is-active' : ''}`}
                    aria-current={active ? 'page' : undefined}
                    aria-label={`Line ${line.userName ?? ''} ${formatHandle(line.phoneNumber)}, ${line.unreadChats} unread`}
                    title={`${line.userName ?? ''} ${formatHandle(line.phoneNumber)}`.trim()}
                    onClick={() => showInbox({ lineId: active ? null : line.id, archived: false })}
                  >
                    <span className="line-dot" aria-hidden="true" />
                    <span className="line-initial" aria-hidden="true">
                      {line.userName ? initials(line.userName) : line.phoneNumber.slice(-2)}
                    </span>
                    <span className="line-text">
                      <span>{line.userName ?? formatHandle(line.phoneNumber)}</span>
                      {line.userName && <span className="line-number">{formatHandle(line.phoneNumber)}</span>}
                    </span>
                    {line.unreadChats > 0 && <span className="nav-count">{line.unreadChats}</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      )}

      {onTeam && (
        <Suspense fallback={null}>
          <TeamList />
        </Suspense>
      )}

      <ul className="nav-list nav-bottom">
        <NavItem
          icon={Contact}
          label="Contacts"
          active={view === 'contacts'}
          onClick={() => goTo('contacts')}
        />
        <NavItem
          icon={Phone}
          label="Lines & forwarding"
          active={view === 'lines'}
          onClick={() => goTo('lines')}
        />
        <NavItem
          icon={Settings}
          label="Settings"
          active={view === 'settings'}
          onClick={() => goTo('settings')}
        />
      </ul>
      <LiveIndicator />
    </nav>
  );
}
