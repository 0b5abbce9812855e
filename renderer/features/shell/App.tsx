import { MessageSquare } from 'lucide-react';
import { EmptyState, Kbd } from '../../components/EmptyState.tsx';
import { useStore } from '../../store/index.ts';
import { ContactsView } from '../contacts/ContactsView.tsx';
import { Conversation } from '../conversation/Conversation.tsx';
import { InboxColumn } from '../inbox/InboxColumn.tsx';
import { LinesView } from '../lines/LinesView.tsx';
import { LivePanel } from '../live/LivePanel.tsx';
import { NewChatDialog } from '../new-chat/NewChatDialog.tsx';
import { QuickSwitcher } from '../palette/QuickSwitcher.tsx';
import { ShortcutSheet } from '../palette/ShortcutSheet.tsx';
import { SettingsView } from '../settings/SettingsView.tsx';
import { CannedRepliesView } from '../workbench/CannedRepliesView.tsx';
import { WaitingView } from '../workbench/WaitingView.tsx';
import { SnoozedView } from '../workbench/SnoozedView.tsx';
import { Announcer, Toasts } from './Toasts.tsx';
import { DemoBanner, OfflineBanner, StorageBanner } from './Banners.tsx';
import { MediaViewer } from './MediaViewer.tsx';
import { Sidebar } from './Sidebar.tsx';
import { SkipLinks } from './SkipLinks.tsx';
import { useDocumentTitle, useShortcuts, useTheme } from './use-app-effects.ts';

/** The shell: banners, sidebar, and the current view; dialogs float above. */
export function App() {
  useTheme();
  useDocumentTitle();
  useShortcuts();
  const view = useStore((s) => s.view);
  const overlay = useStore((s) => s.overlay);
  const viewerOpen = useStore((s) => s.viewer !== null);
  // Behind a dialog, the app is inert: not focusable, not in the accessibility tree.
  const blocked = overlay !== null || viewerOpen;
  return (
    <div className="app">
      <div inert={blocked}>
        <SkipLinks />
      </div>
      <DemoBanner />
      <OfflineBanner />
      <StorageBanner />
      <div className="app-body" inert={blocked}>
        <Sidebar />
        <main className="main">
          {view === 'inbox' && <InboxView />}
          {view === 'contacts' && <ContactsView />}
          {view === 'lines' && <LinesView />}
          {view === 'settings' && <SettingsView />}
          {view === 'waiting' && <WaitingView />}
          {view === 'canned' && <CannedRepliesView />}
          {view === 'snoozed' && <SnoozedView />}
        </main>
      </div>
      {overlay === 'newChat' && <NewChatDialog />}
      {overlay === 'quickSwitcher' && <QuickSwitcher />}
      {overlay === 'shortcuts' && <ShortcutSheet />}
      {overlay === 'live' && <LivePanel />}
      <MediaViewer />
      <Toasts />
      <Announcer />
    </div>
  );
}

function InboxView() {
  const selected = useStore((s) => s.selectedChatId);
  return (
    <div className={`inbox-view${selected !== null ? ' has-conversation' : ''}`}>
      <InboxColumn />
      {selected !== null ? <Conversation key={selected} chatId={selected} /> : <NoChatSelected />}
    </div>
  );
}

function NoChatSelected() {
  return (
    <div className="conversation-area is-empty">
      <EmptyState icon={<MessageSquare size={26} />} title="Pick a conversation">
        <p>
          Start a new one with <Kbd>C</Kbd>, jump anywhere with <Kbd>Ctrl/⌘</Kbd> <Kbd>K</Kbd>, and press{' '}
          <Kbd>?</Kbd> for every shortcut.
        </p>
      </EmptyState>
    </div>
  );
}
