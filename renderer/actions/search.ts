/** Local full-text search (names, numbers, message text), debounced as the agent types. */
import { parley } from '../bridge/parley.ts';
import { errorText } from '../lib/errors.ts';
import { forgetOnWorkspaceReset, getState } from '../store/index.ts';

let timer: ReturnType<typeof setTimeout> | undefined;
let generation = 0;
// A search still running answers from the left workspace: its results must not show.
forgetOnWorkspaceReset(() => {
  clearTimeout(timer);
  generation++;
});

export function setSearchQuery(query: string): void {
  getState().setSearch({ query });
  clearTimeout(timer);
  if (query.trim() === '') {
    generation++;
    getState().setSearch({ status: 'idle', results: null, error: null });
    return;
  }
  getState().setSearch({ status: 'loading' });
  timer = setTimeout(() => void runSearch(query), 120);
}

async function runSearch(query: string): Promise<void> {
  const run = ++generation;
  try {
    const results = await parley.chats.search({ query: query.trim(), limit: 50 });
    if (run === generation) getState().setSearch({ status: 'ready', results, error: null });
  } catch (error) {
    if (run === generation) getState().setSearch({ status: 'error', error: errorText(error) });
  }
}

export function clearSearch(): void {
  setSearchQuery('');
}
