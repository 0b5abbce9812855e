/**
 * A desktop's side of the team layer, on its agent's own connection: it asks the relay to assign,
 * note and edit team replies (request/reply on its own action subject), and watches the team's
 * buckets and stream. Replies and everything read are validated as untrusted input.
 */
import { DeliverPolicy, jetstream, type ConsumerMessages } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { createLogger } from '../log/logger.ts';
import { LIVE_PULL } from '../relay/live-pull.ts';
import {
  activitySubject,
  ASSIGNMENTS_BUCKET,
  CANNED_REPLIES_BUCKET,
  mentionsSubject,
  notesSubject,
  ROSTER_KEY,
  TEAM_BUCKET,
  TEAM_SETTINGS_KEY,
  TEAM_STREAM,
  teamActionSubject,
  type TeamActionName,
} from '../relay/team-subjects.ts';
import type { AssignRequest } from './assignment-rules.ts';
import { watchBucket, type BucketWatch, type WatchedEntry } from './bucket-watch.ts';
import { readToEnd } from './stream-read.ts';
import type { ActionReply } from './team-actions.ts';
import {
  Assignment,
  decode,
  decodeOrSkip,
  encode,
  Mention,
  Roster,
  TeamNote,
  TeamReply,
  TeamSettings,
} from './wire.ts';

const log = createLogger('team-client');

const ACTION_TIMEOUT_MS = 10_000;

const ActionReplySchema = z.union([
  z.looseObject({ ok: z.literal(true) }),
  z.object({
    ok: z.literal(false),
    error: z.object({
      code: z.string(),
      message: z.string(),
      retryable: z.boolean(),
      field: z.string().nullable(),
    }),
    owner: z.string().nullable().optional(),
  }),
]);

export class TeamClient {
  readonly #nc: NatsConnection;
  readonly agentId: string;

  constructor(nc: NatsConnection, agentId: string) {
    this.#nc = nc;
    this.agentId = agentId;
  }

  /** Any assignment action; a refused claim says who owns the conversation (`owner`). */
  assign(request: AssignRequest): Promise<ActionReply> {
    return this.#act('assign', request);
  }

  writeNote(chatId: number, text: string): Promise<ActionReply> {
    return this.#act('note', { chatId, text });
  }

  saveTeamReply(reply: { id?: string; title: string; body: string }): Promise<ActionReply> {
    return this.#act('canned', { op: 'save', ...reply });
  }

  deleteTeamReply(id: string): Promise<ActionReply> {
    return this.#act('canned', { op: 'delete', id });
  }

  /** The current assignments, by chat id, then every change. */
  async watchAssignments(
    onChange: (assignments: ReadonlyMap<number, WatchedEntry<Assignment>>) => void,
  ): Promise<BucketWatch<Assignment>> {
    return watchBucket(
      await this.#bucket(ASSIGNMENTS_BUCKET),
      (key, data) => decodeOrSkip(Assignment, data, log, key),
      (entries) => onChange(new Map([...entries.values()].map((entry) => [entry.value.chatId, entry]))),
      log,
    );
  }

  /** The team's canned replies, by id, then every change. */
  async watchTeamReplies(
    onChange: (replies: ReadonlyMap<string, WatchedEntry<TeamReply>>) => void,
  ): Promise<BucketWatch<TeamReply>> {
    return watchBucket(
      await this.#bucket(CANNED_REPLIES_BUCKET),
      (key, data) => decodeOrSkip(TeamReply, data, log, key),
      onChange,
      log,
    );
  }

  /** An admin's change to the team's settings (the relay refuses, and audits, anyone else's). */
  updateSettings(change: Partial<TeamSettings>): Promise<ActionReply> {
    return this.#act('settings', change);
  }

  /** The team's settings and roster (the agents' names), then every change of either. */
  async watchTeam(
    onChange: (team: { settings: TeamSettings; roster: Roster['agents'] }) => void,
  ): Promise<BucketWatch<TeamSettings | Roster>> {
    const parse = (key: string, data: Uint8Array): TeamSettings | Roster | undefined => {
      if (key === TEAM_SETTINGS_KEY) return decodeOrSkip(TeamSettings, data, log, key);
      if (key === ROSTER_KEY) return decodeOrSkip(Roster, data, log, key);
      return undefined; // the relay's own entries (round-robin)
    };
    return watchBucket(
      await this.#bucket(TEAM_BUCKET),
      parse,
      (entries) =>
        onChange({
          settings:
            (entries.get(TEAM_SETTINGS_KEY)?.value as TeamSettings | undefined) ?? TeamSettings.parse({}),
          roster: (entries.get(ROSTER_KEY)?.value as Roster | undefined)?.agents ?? [],
        }),
      log,
    );
  }

  async settings(): Promise<TeamSettings> {
    const entry = await (await this.#bucket(TEAM_BUCKET)).get(TEAM_SETTINGS_KEY);
    const parsed = entry?.operation === 'PUT' ? decode(TeamSettings, entry.value) : undefined;
    return parsed?.ok ? parsed.value : TeamSettings.parse({});
  }

  /** A chat's team notes, oldest first, each with its sequence in the team stream. */
  async readNotes(chatId: number, afterSeq = 0): Promise<Array<{ seq: number; note: TeamNote }>> {
    const stored = await readToEnd(this.#nc, TEAM_STREAM, {
      subject: notesSubject(chatId),
      startSeq: afterSeq + 1,
    });
    return stored.flatMap(({ seq, data }) => {
      const note = decodeOrSkip(TeamNote, data, log, `note #${seq}`);
      return note && note.chatId === chatId ? [{ seq, note }] : [];
    });
  }

  /** The last activity of a chat the relay recorded: what a send says it had seen (`seenSeq`). */
  async latestActivitySeq(chatId: number): Promise<number> {
    const stored = await readToEnd(this.#nc, TEAM_STREAM, { subject: activitySubject(chatId) });
    return stored.at(-1)?.seq ?? 0;
  }

  /** This agent's mentions after `afterSeq` (0: all), then live ones. */
  async followMentions(
    afterSeq: number,
    onMention: (mention: Mention, seq: number) => void,
  ): Promise<{ stop(): Promise<void> }> {
    const consumer = await jetstream(this.#nc).consumers.get(TEAM_STREAM, {
      filter_subjects: mentionsSubject(this.agentId),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: afterSeq + 1,
    });
    const messages: ConsumerMessages = await consumer.consume(LIVE_PULL);
    const done = (async () => {
      for await (const msg of messages) {
        const mention = decodeOrSkip(Mention, msg.data, log, `mention #${msg.seq}`);
        if (mention) onMention(mention, msg.seq);
      }
    })().catch((error: unknown) => log.warn('stopped following mentions', { error: String(error) }));
    return {
      async stop() {
        await messages.close();
        await done;
      },
    };
  }

  async #act(action: TeamActionName, body: unknown): Promise<ActionReply> {
    const answer = await this.#nc.request(teamActionSubject(this.agentId, action), encode(body), {
      timeout: ACTION_TIMEOUT_MS,
    });
    const parsed = decode(ActionReplySchema, answer.data);
    if (!parsed.ok) throw new Error(`The team relay answered something unexpected: ${parsed.reason}`);
    return parsed.value as ActionReply;
  }

  #bucket(name: string): Promise<KV> {
    return new Kvm(this.#nc).open(name);
  }
}
