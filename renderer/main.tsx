/**
 * The renderer's entry: styles, the store's event wiring (once, outside React), then the shell.
 */
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { startApp } from './actions/bootstrap.ts';
import { App } from './features/shell/App.tsx';
import { lazyNamed } from './lib/lazy.ts';
import './styles/tokens.css';
import './styles/base.css';
import './styles/shell/index.css';
import './styles/inbox/index.css';
import './styles/conversation/index.css';
import './styles/views/index.css';
import './styles/workbench/index.css';
import './styles/team/index.css';
import './styles/narrow.css';

// The Electron quick-reply window loads this page for one chat: no inbox, no start-up sync.
const QuickReply = lazyNamed(() => import('./features/workbench/QuickReply.tsx'), 'QuickReply');
const quickReplyChat = Number(new URLSearchParams(location.search).get('quickReply')) || null;
if (quickReplyChat === null) startApp();

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      {quickReplyChat === null ? (
        <App />
      ) : (
        <Suspense fallback={null}>
          <QuickReply chatId={quickReplyChat} />
        </Suspense>
      )}
    </StrictMode>,
  );
