/**
 * The renderer's entry: styles, the store's event wiring (once, outside React), then the shell.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startApp } from './actions/bootstrap.ts';
import { App } from './features/shell/App.tsx';
import './styles/tokens.css';
import './styles/base.css';
import './styles/shell.css';
import './styles/inbox.css';
import './styles/conversation.css';
import './styles/views.css';
import './styles/workbench.css';
import './styles/narrow.css';

startApp();

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
