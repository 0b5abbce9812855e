import { MessageSquare } from 'lucide-react';
import { Suspense, useEffect } from 'react';
import { EmptyState, Kbd } from '../../components/EmptyState.tsx';
import { lazyNamed } from '../../lib/lazy.ts';
import { useStore } from '../../store/index.ts';
import { InboxColumn } from '../inbox/InboxColumn.tsx';
import { Announcer, Toasts } from './Toasts.tsx';
import { DemoBanner, OfflineBanner, StorageBanner } from './Banners.tsx';
import { Sidebar } from './Sidebar.tsx';
import { SkipLinks } from './SkipLinks.tsx';
import { useDocumentTitle, useShortcuts, useTheme } from './use-app-effects.ts';

// Off the inbox path: each in its own chunk, fetched when first shown.
const loadConversation = () => import('../conversation/Conversation.tsx');
const Conversation = lazyNamed(loadConversation, 'Conversation');
const ContactsView = lazyNamed(() => import('../contacts/ContactsView.tsx'), 'ContactsView');
const LinesView = lazyNamed(() => import('../lines/LinesView.tsx'), 'LinesView');
const LivePanel = lazyNamed(() => import('../live/LivePanel.tsx'), 'LivePanel');
const NewChatDialog = lazyNamed(() => import('../new-chat/NewChatDialog.tsx'), 'NewChatDialog');
const QuickSwitcher = lazyNamed(() => import('../palette/QuickSwitcher.tsx'), 'QuickSwitcher');
const ShortcutSheet = lazyNamed(() => import('../palette/ShortcutSheet.tsx'), 'ShortcutSheet');
const SettingsView = lazyNamed(() => import('../settings/SettingsView.tsx'), 'SettingsView');
const CannedRepliesView = lazyNamed(() => import('../workbench/CannedRepliesView.tsx'), 'CannedRepliesView');
const WaitingView = lazyNamed(() => import('../workbench/WaitingView.tsx'), 'WaitingView');
const SnoozedView = lazyNamed(() => import('../workbench/SnoozedView.tsx'), 'SnoozedView');
const MediaViewer = lazyNamed(() => import('./MediaViewer.tsx'), 'MediaViewer');

/** The shell: banners, sidebar, and the current view; dialogs float above. */
export function App() {
  useTheme();
  useDocumentTitle();
  useShortcuts();
  // The conversation pane is off the boot path, not off the agent's: once the inbox is drawn and the
  // page is idle, fetch it, so the first conversation opened never waits for its chunk.
  useEffect(() => {
    const idle = requestIdleCallback(() => void loadConversation());
    return () => cancelIdleCallback(idle);
  }, []);
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
          <Suspense fallback={<ViewLoading />}>
            {view === 'contacts' && <ContactsView />}
            {view === 'lines' && <LinesView />}
            {view === 'settings' && <SettingsView />}
            {view === 'waiting' && <WaitingView />}
            {view === 'canned' && <CannedRepliesView />}
            {view === 'snoozed' && <SnoozedView />}
          </Suspense>
        </main>
      </div>
      {/* A dialog appears whole once its chunk is in: no half-drawn frame. */}
      <Suspense fallback={null}>
        {overlay === 'newChat' && <NewChatDialog />}
        {overlay === 'quickSwitcher' && <QuickSwitcher />}
        {overlay === 'shortcuts' && <ShortcutSheet />}
        {overlay === 'live' && <LivePanel />}
        {viewerOpen && <MediaViewer />}
      </Suspense>
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
      {selected !== null ? (
        <Suspense fallback={<div className="conversation is-empty" />}>
          <Conversation key={selected} chatId={selected} />
        </Suspense>
      ) : (
        <NoChatSelected />
      )}
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

/** While a view's chunk loads: announced to assistive technology, and no visible flash. */
function ViewLoading() {
  return (
    <div className="view-loading" role="status" aria-live="polite">
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}
