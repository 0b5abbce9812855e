/**
 * Starting a joined desktop's team layer (TeamDesk, team-desk.ts): every watch in order — the team,
 * chat activity, the views' counts, assignments, team replies, presence, notes and mentions — each on
 * its own, so a part that fails is logged and the rest runs (the relay may be older). Kept apart from
 * TeamDesk so the desk reads as what the bridge asks of it, and this as what runs while it is open.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { TeamChanged, TeamMentionNotice } from '../../../shared/contract/team-views.ts';
import { createLogger } from '../log/logger.ts';
import type { ServiceSession } from '../session.ts';
import type { BucketWatch } from './bucket-watch.ts';
import { repliesView } from './desk-views.ts';
import { followNotesAndMentions } from './notes-feed.ts';
import { PresencePublisher, PresenceWatcher } from './presence.ts';
import { SeenActivity } from './seen-activity.ts';
import type { TeamClient } from './team-client.ts';
import type { TeamPicture } from './team-picture.ts';
import type { TeamReply } from './wire.ts';

const log = createLogger('team-desk');

/** The parts a started desk asks of, each set as soon as it started (absent: it could not). */
export interface DeskParts {
  seen?: SeenActivity;
  replies?: BucketWatch<TeamReply>;
  publisher?: PresencePublisher;
}

export interface DeskWatchesOptions {
  nc: NatsConnection;
  client: TeamClient;
  agentId: string;
  session: Pick<ServiceSession, 'store'>;
  picture: TeamPicture;
  heartbeatMs?: number | undefined;
  idleAwayMs?: number | undefined;
  staleAfterMs?: number | undefined;
  /** Whether the desk stopped meanwhile: the steps not yet begun are skipped. */
  stopped: () => boolean;
  /** Where the parts go as they start. */
  parts: DeskParts;
  /** How each part stops; the desk runs them in reverse. */
  stops: Array<() => Promise<void>>;
  emit: (change: TeamChanged) => void;
  mention: (notice: TeamMentionNotice) => void;
}

/** Starts every watch of the desk, in order; resolves when each has started or failed. */
export async function startDeskWatches(options: DeskWatchesOptions): Promise<void> {
  const { nc, client, agentId, picture, parts, stops, emit } = options;
  const { store } = options.session;
  const step = async (what: string, run: () => Promise<void>) => {
    if (options.stopped()) return;
    await run().catch((error: unknown) =>
      log.warn(`team: could not start ${what}`, { error: String(error) }),
    );
  };
  await step('the team watch', async () => {
    const watch = await client.watchTeam((team) => emit(picture.team(team)));
    stops.push(() => watch.stop());
  });
  await step('chat activity', async () => {
    const seen = await SeenActivity.start(nc, {
      agentId,
      isShown: (chatId, messageId) => store.messages.chatOf(messageId) === chatId,
    });
    parts.seen = seen;
    const unlisten = store.events.on('messages.changed', ({ chatId }) => seen.messagesArrived(chatId), {
      rows: false,
    });
    stops.push(async () => {
      unlisten();
      await seen.stop();
    });
  });
  await step('the views’ counts', async () => {
    // A chat new, gone or given its real id changes the counts as much as an assignment does.
    const { events } = store;
    const recount = (change?: Parameters<TeamPicture['chatsChanged']>[0]) =>
      emit(picture.chatsChanged(change));
    const ids = { rows: false };
    const unlisten = [
      // By id: whether each still exists is all the counts need of the rows (no read of them).
      events.on(
        'chats.changed',
        ({ chatIds }) => {
          const { chats } = store;
          recount({ chatIds, chats: chatIds.filter((id) => chats.exists(id)).map((id) => ({ id })) });
        },
        ids,
      ),
      events.on('chats.removed', () => recount()),
      events.on('chats.replaced', () => recount()),
    ];
    stops.push(async () => unlisten.forEach((off) => off()));
  });
  await step('assignments', async () => {
    const watch = await client.watchAssignments((entries) => emit(picture.assignments(entries)));
    stops.push(() => watch.stop());
  });
  await step('team replies', async () => {
    const replies = await client.watchTeamReplies((entries) =>
      emit({ replies: repliesView(entries, picture.nameOf) }),
    );
    parts.replies = replies;
    stops.push(() => replies.stop());
  });
  await step('presence', async () => {
    const watcher = await PresenceWatcher.start(nc, {
      agentId,
      ...(options.staleAfterMs ? { staleAfterMs: options.staleAfterMs } : {}),
      onChange: (presence) => emit(picture.presence(presence)),
    });
    stops.push(() => watcher.stop());
    emit(picture.presence(watcher.current));
    const publisher = await PresencePublisher.start(nc, {
      agentId,
      ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
      ...(options.idleAwayMs ? { idleAwayMs: options.idleAwayMs } : {}),
    });
    parts.publisher = publisher;
    // `stops` runs in reverse: this agent's keys go before the watches close.
    stops.push(() => publisher.stop());
  });
  await step('notes and mentions', async () => {
    const notesStops = await followNotesAndMentions({
      nc,
      client,
      agentId,
      cursors: store.cursors,
      log,
      onNote: (note) => emit({ notes: [note] }),
      onMention: options.mention,
    });
    stops.push(...notesStops);
  });
}
