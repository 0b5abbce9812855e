import type { MethodParsedInput } from '../../../shared/contract/methods.ts';
import { stagedView } from '../../../shared/contract/staged.ts';
import type { ScheduledSend, SnoozedChat } from '../../../shared/contract/views.ts';
import { MAX_SCHEDULE_AHEAD_MS } from '../../../shared/schedule.ts';
import type { SendInput } from '../outbox/outbox.ts';
import type { ScheduledSendRow } from '../store/scheduled-sends-repo.ts';
import { replyFromNotification } from '../workbench/quick-reply.ts';
import { takeDraft } from './composer-draft.ts';
import type { HandlerContext } from './handler-context.ts';
import type { Handlers } from './dispatch.ts';
import { draftOptionsOf, draftView } from './draft-view.ts';
import { UserFacingError } from './errors.ts';

export type ScheduleMethod =
  | 'scheduled.list'
  | 'scheduled.send'
  | 'scheduled.create'
  | 'scheduled.update'
  | 'scheduled.sendNow'
  | 'scheduled.withdraw'
  | 'snooze.list'
  | 'snooze.set'
  | 'snooze.clear'
  | 'workbench.quickReply';

/** A message from the composer, waiting or sent (without the time of a scheduled one). */
type ComposerMessage = Omit<MethodParsedInput<'scheduled.create'>, 'at'>;

/** Send later, undo send, snooze and quick replies over the bridge. Inputs arrive validated. */
export function createScheduleHandlers(core: HandlerContext): Pick<Handlers, ScheduleMethod> {
  const s = () => core.session;
  const store = () => core.session.store;

  const view = (row: ScheduledSendRow): ScheduledSend => ({
    id: row.id,
    chatId: row.chatId,
    kind: row.kind,
    text: row.text,
    attachments: row.stagedIds.flatMap((id) => {
      const file = s().staging.get(id);
      return file ? [stagedView(file)] : [];
    }),
    attachmentUrls: row.attachmentUrls,
    dueAt: row.dueAt,
    needsConfirmation: row.needsConfirmation,
    createdAt: row.createdAt,
  });

  /** The composer's message checked at the outbox's door, as any send is; ready to wait. */
  const admitted = ({ replyTo, effect, preferredService, ...content }: ComposerMessage): SendInput =>
    s().sendDoor.admit({ origin: 'composer', ...content, options: { replyTo, effect, preferredService } });

  const checkTime = (at: number): void => {
    const now = Date.now();
    if (at <= now) throw new UserFacingError('invalid_input', 'Pick a time in the future', { field: 'at' });
    if (at > now + MAX_SCHEDULE_AHEAD_MS)
      throw new UserFacingError('invalid_input', 'Pick a time within the next year', { field: 'at' });
  };

  const existing = (id: number): ScheduledSendRow => {
    const row = store().scheduled.get(id);
    if (!row) throw new UserFacingError('not_found', 'That message has already been sent or cancelled');
    return row;
  };

  const snoozedChats = (
    rows: ReturnType<typeof store>['snoozes'] extends { sleeping(): infer R } ? R : never,
  ) => {
    const chats = new Map(
      store()
        .chats.byIds(rows.map((r) => r.chatId))
        .map((c) => [c.id, c]),
    );
    return rows.flatMap((snooze): SnoozedChat[] => {
      const chat = chats.get(snooze.chatId);
      return chat ? [{ chat, snooze }] : [];
    });
  };

  return {
    'scheduled.list': ({ chatId }) =>
      (chatId === undefined ? store().scheduled.all() : store().scheduled.forChat(chatId)).map(view),
    'scheduled.send': (input) => {
      const message = admitted(input);
      const seconds = store().workbench.settings().undoSeconds;
      return takeDraft(s(), message.chatId, () => {
        if (seconds <= 0) return { key: s().outbox.send(message), waiting: null };
        const waiting = s().scheduler.schedule({
          ...message,
          kind: 'grace',
          dueAt: Date.now() + seconds * 1000,
        });
        return { key: null, waiting: view(waiting) };
      });
    },
    'scheduled.create': ({ at, ...input }) => {
      const message = admitted(input);
      checkTime(at);
      return view(
        takeDraft(s(), message.chatId, () =>
          s().scheduler.schedule({ ...message, kind: 'scheduled', dueAt: at }),
        ),
      );
    },
    'scheduled.update': ({ id, text, at }) => {
      const row = existing(id);
      if (at !== undefined) checkTime(at);
      if (text !== undefined && text.trim() === '' && row.stagedIds.length + row.attachmentUrls.length === 0)
        throw new UserFacingError('invalid_input', 'Type a message or cancel it', { field: 'text' });
      const updated = s().scheduler.change(id, {
        ...(text !== undefined ? { text } : {}),
        ...(at !== undefined ? { dueAt: at } : {}),
      });
      if (!updated) throw new UserFacingError('not_found', 'That message has already been sent or cancelled');
      return view(updated);
    },
    'scheduled.sendNow': ({ id }) => {
      existing(id);
      const key = s().scheduler.sendNow(id);
      if (key === undefined)
        throw new UserFacingError('not_found', 'That message has already been sent or cancelled');
      return { key };
    },
    'scheduled.withdraw': async ({ id, toComposer }) => {
      const row = s().scheduler.withdraw(id);
      if (!row) throw new UserFacingError('not_found', 'That message has already been sent');
      if (!toComposer) {
        await s().staging.release(row.stagedIds);
        return { text: '', attachments: [] };
      }
      // All of it goes back: the reply, effect and service the agent chose come with the text.
      const draft = { ...row, options: draftOptionsOf(s(), row.options) };
      store().drafts.set(row.chatId, row.text, row.stagedIds, draft);
      return draftView(s(), draft);
    },
    'snooze.list': () => ({
      snoozed: snoozedChats(store().snoozes.sleeping()),
      woken: snoozedChats(store().snoozes.woken()),
    }),
    'snooze.set': ({ chatId, until }) => {
      if (!store().chats.exists(chatId)) throw new UserFacingError('not_found', 'No such chat');
      checkTime(until);
      const snooze = store().transaction(() => store().snoozes.snooze(chatId, until));
      s().scheduler.rearm();
      return snooze;
    },
    'workbench.quickReply': async ({ chatId, text }) => ({
      key: await replyFromNotification(s(), chatId, text),
    }),
    'snooze.clear': ({ chatId }) => {
      store().transaction(() => store().snoozes.clear(chatId));
    },
  };
}
