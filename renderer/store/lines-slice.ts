/** The organization's lines (phone numbers) with their unread counts. */
import type { StateCreator } from 'zustand';
import type { LineWithUnread } from '../../shared/contract/views.ts';
import type { Store } from './index.ts';

export interface LinesSlice {
  lines: LineWithUnread[];
  linesStatus: 'loading' | 'ready' | 'error';
  receiveLines(lines: LineWithUnread[]): void;
  upsertLine(line: LineWithUnread): void;
  setLinesError(): void;
  resetLines(): void;
}

export const createLinesSlice: StateCreator<Store, [], [], LinesSlice> = (set) => ({
  lines: [],
  linesStatus: 'loading',
  receiveLines: (lines) =>
    set((s) =>
      JSON.stringify(s.lines) === JSON.stringify(lines) && s.linesStatus === 'ready'
        ? {}
        : { lines, linesStatus: 'ready' },
    ),
  upsertLine: (line) => set((s) => ({ lines: s.lines.map((l) => (l.id === line.id ? line : l)) })),
  setLinesError: () => set({ linesStatus: 'error' }),
  resetLines: () => set({ lines: [], linesStatus: 'loading' }),
});

/** Unread conversations across all lines: the title and the badge. */
export function unreadTotal(lines: readonly LineWithUnread[]): number {
  return lines.reduce((sum, line) => sum + line.unreadChats, 0);
}
