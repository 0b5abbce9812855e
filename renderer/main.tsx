import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { Chat } from '../shared/domain.ts';
import { parley } from './bridge/parley.ts';

/** Placeholder shell until the inbox UI lands: lists the chats through the bridge. */
function App() {
  const [chats, setChats] = useState<Chat[]>([]);
  useEffect(() => {
    const load = () => void parley.chats.list().then(setChats);
    load();
    const off = parley.on('chats.changed', load);
    return off;
  }, []);
  return (
    <main>
      <h1>Parley</h1>
      <ul aria-label="Conversations">
        {chats.map((chat) => (
          <li key={chat.id}>{chat.displayName}</li>
        ))}
      </ul>
    </main>
  );
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
