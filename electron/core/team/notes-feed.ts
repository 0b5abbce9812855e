/**
 * A desktop's feed of the team's notes (every new one, live) and of mentions of its agent (from the
 * last one it told, so mentions made while it was closed are told once when it opens).
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { TeamMentionNotice, TeamNote as TeamNoteView } from '../../../shared/contract/team-views.ts';
import type { Logger } from '../log/logger.ts';
import type { CursorsRepo } from '../store/cursors-repo.ts';
import { ORG_API } from '../relay/grants.ts';
import { keepFollowing } from '../relay/keep-following.ts';
import { TEAM_STREAM } from '../relay/team-subjects.ts';
import { noteView } from './desk-views.ts';
import { lastSeq } from './stream-read.ts';
import type { TeamClient } from './team-client.ts';
import { decodeOrSkip, TeamNote } from './wire.ts';

/** The last mention of this agent told on this desktop (its sequence in the team stream). */
const MENTIONS_CURSOR = 'team.mentions';

export interface NotesFeedOptions {
  nc: NatsConnection;
  client: TeamClient;
  agentId: string;
  cursors: CursorsRepo;
  log: Logger;
  onNote: (note: TeamNoteView) => void;
  onMention: (notice: TeamMentionNotice) => void;
}

/** Follows both; resolves with what stops each, in the order they started (stop them in reverse). */
export async function followNotesAndMentions(options: NotesFeedOptions): Promise<Array<() => Promise<void>>> {
  const { nc, client, agentId, cursors, log } = options;
  const from = await lastSeq(nc, TEAM_STREAM, ORG_API);
  const notes = await keepFollowing(nc, {
    agentId,
    slot: 'notes',
    fromSeq: from + 1,
    onMessage: (m) => {
      const note = decodeOrSkip(TeamNote, m.data, log, `note #${m.seq}`);
      if (note) options.onNote(noteView(m.seq, note, agentId));
    },
    log,
  });
  const told = Number(cursors.get(MENTIONS_CURSOR));
  if (!(told > 0)) cursors.set(MENTIONS_CURSOR, String(from));
  const mentions = await client
    .followMentions(told > 0 && told <= from ? told : from, (mention, seq) => {
      cursors.set(MENTIONS_CURSOR, String(seq));
      options.onMention({ ...mention, title: `${mention.fromName} mentioned you`, body: mention.preview });
    })
    .catch(async (error: unknown) => {
      await notes.stop();
      throw error;
    });
  return [() => notes.stop(), () => mentions.stop()];
}
