/** The agent's workbench: canned replies, waiting on you, notes and context of the open chat. */
import type { StateCreator } from 'zustand';
import type {
  CannedReply,
  ChatContext,
  Note,
  ScheduledSend,
  SnoozedChat,
  WaitingChat,
  WorkbenchSettings,
} from '../../shared/contract/views.ts';
import type { Store } from './index.ts';

export interface WorkbenchSlice {
  canned: CannedReply[];
  cannedStatus: 'idle' | 'loading' | 'ready' | 'error';
  waiting: WaitingChat[];
  waitingLoaded: boolean;
  workbenchSettings: WorkbenchSettings;
  /** Per chat: its customer's contact, line and notes. */
  chatContexts: Record<number, ChatContext>;
  /** Which chats have the note form open. */
  noteFormOpen: Record<number, boolean>;
  setCanned(canned: CannedReply[], status?: WorkbenchSlice['cannedStatus']): void;
  setCannedStatus(status: WorkbenchSlice['cannedStatus']): void;
  setWaiting(waiting: WaitingChat[]): void;
  setWorkbenchSettings(settings: WorkbenchSettings): void;
  setChatContext(chatId: number, context: ChatContext): void;
  /** Replaces (or removes, with null) one note wherever it is shown. */
  putNote(note: Note, remove?: boolean): void;
  setNoteFormOpen(chatId: number, open: boolean): void;
  /** Per chat: messages held back (scheduled, or in their undo grace period), soonest first. */
  scheduled: Record<number, ScheduledSend[]>;
  /** Snoozed conversations, and those back from a snooze the agent has not opened yet. */
  snoozes: { snoozed: SnoozedChat[]; woken: SnoozedChat[] };
  setScheduled(chatId: number, items: ScheduledSend[]): void;
  setSnoozes(snoozes: { snoozed: SnoozedChat[]; woken: SnoozedChat[] }): void;
  resetWorkbench(): void;
}

const initial = {
  canned: [],
  cannedStatus: 'idle' as const,
  waiting: [],
  waitingLoaded: false,
  workbenchSettings: {
    agentName: '',
    overdueMinutes: 15,
    undoSeconds: 0,
    quietHours: null,
    mutedLineIds: [],
  },
  chatContexts: {},
  noteFormOpen: {},
  scheduled: {},
  snoozes: { snoozed: [], woken: [] },
};

function withNote(list: Note[], note: Note, remove: boolean): Note[] {
  const rest = list.filter((n) => n.id !== note.id);
  return remove ? rest : [...rest, note].sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
}

export const createWorkbenchSlice: StateCreator<Store, [], [], WorkbenchSlice> = (set) => ({
  ...initial,
  setCanned: (canned, status = 'ready') => set({ canned, cannedStatus: status }),
  setCannedStatus: (cannedStatus) => set({ cannedStatus }),
  setWaiting: (waiting) => set({ waiting, waitingLoaded: true }),
  setWorkbenchSettings: (workbenchSettings) => set({ workbenchSettings }),
  setChatContext: (chatId, context) =>
    set((s) => ({ chatContexts: { ...s.chatContexts, [chatId]: context } })),
  putNote: (note, remove = false) =>
    set((s) => {
      const contexts = { ...s.chatContexts };
      for (const [id, context] of Object.entries(contexts)) {
        const chatId = Number(id);
        const notes = note.chatId === chatId ? withNote(context.notes, note, remove) : context.notes;
        const contactNotes =
          note.contactId !== null && context.contact?.id === note.contactId
            ? withNote(context.contactNotes, note, remove)
            : context.contactNotes;
        if (notes !== context.notes || contactNotes !== context.contactNotes)
          contexts[chatId] = { ...context, notes, contactNotes };
      }
      return { chatContexts: contexts };
    }),
  setNoteFormOpen: (chatId, open) => set((s) => ({ noteFormOpen: { ...s.noteFormOpen, [chatId]: open } })),
  setScheduled: (chatId, items) => set((s) => ({ scheduled: { ...s.scheduled, [chatId]: items } })),
  setSnoozes: (snoozes) => set({ snoozes }),
  resetWorkbench: () => set(initial),
});
