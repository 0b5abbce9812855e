/**
 * A desktop's side of the team layer, on its agent's own connection: it asks the relay to assign,
 * note and edit team replies (request/reply on its own action subject), and watches the team's
 * buckets and stream. Replies and everything read are validated as untrusted input.
 */
import { jetstream } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { createLogger } from '../log/logger.ts';
import { ORG_API } from '../relay/grants.ts';
import { keepFollowing } from '../relay/keep-following.ts';
import {
  ROSTER_KEY,
  TEAM_BUCKET,
  TEAM_SETTINGS_KEY,
  teamActionSubject,
  type TeamActionName,
} from '../relay/team-subjects.ts';
import type { AssignRequest } from './assignment-rules.ts';
import { followBucket, type BucketWatch, type WatchedEntry } from './bucket-watch.ts';
import type { ActionReply } from './team-actions.ts';
import { LatestAnswer, NotesAnswer } from './team-history.ts';
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
    return followBucket(
      this.#nc,
      { agentId: this.agentId, slot: 'assignments' },
      (key, data) => decodeOrSkip(Assignment, data, log, key),
      (entries) => onChange(new Map([...entries.values()].map((entry) => [entry.value.chatId, entry]))),
      log,
    );
  }

  /** The team's canned replies, by id, then every change. */
  async watchTeamReplies(
    onChange: (replies: ReadonlyMap<string, WatchedEntry<TeamReply>>) => void,
  ): Promise<BucketWatch<TeamReply>> {
    return followBucket(
      this.#nc,
      { agentId: this.agentId, slot: 'canned' },
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
    return followBucket(
      this.#nc,
      { agentId: this.agentId, slot: 'team' },
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

  /** A chat's team notes, oldest first, each with its sequence in the team stream (read by the relay). */
  async readNotes(chatId: number, afterSeq = 0): Promise<Array<{ seq: number; note: TeamNote }>> {
    const notes: Array<{ seq: number; note: TeamNote }> = [];
    for (let after = afterSeq; ;) {
      const answer = await this.#read('notes', { chatId, afterSeq: after }, NotesAnswer);
      notes.push(...answer.notes.filter(({ note }) => note.chatId === chatId));
      if (!answer.more || answer.notes.length === 0) return notes;
      after = answer.notes.at(-1)!.seq;
    }
  }

  /** The last activity of a chat the relay recorded: what a send says it had seen (`seenSeq`). */
  async latestActivitySeq(chatId: number): Promise<number> {
    return (await this.#read('latest', { chatId }, LatestAnswer)).seq;
  }

  /** This agent's mentions after `afterSeq` (0: all), then live ones. */
  async followMentions(
    afterSeq: number,
    onMention: (mention: Mention, seq: number) => void,
  ): Promise<{ stop(): Promise<void> }> {
    return keepFollowing(this.#nc, {
      agentId: this.agentId,
      slot: 'mentions',
      fromSeq: afterSeq + 1,
      onMessage: (msg) => {
        const mention = decodeOrSkip(Mention, msg.data, log, `mention #${msg.seq}`);
        if (mention) onMention(mention, msg.seq);
      },
      log,
    });
  }

  /** A read of the team's history: a refusal is thrown in its words. */
  async #read<T>(action: 'notes' | 'latest', body: unknown, schema: z.ZodType<T>): Promise<T> {
    const reply = await this.#act(action, body);
    if (!reply.ok) throw new Error(`${reply.error.message} (${reply.error.code})`);
    const parsed = schema.safeParse(reply);
    if (!parsed.success)
      throw new Error(`The team relay answered a ${action} read with something unexpected`);
    return parsed.data;
  }

  async #act(action: TeamActionName, body: unknown): Promise<ActionReply> {
    const answer = await this.#nc.request(teamActionSubject(this.agentId, action), encode(body), {
      timeout: ACTION_TIMEOUT_MS,
    });
    const parsed = decode(ActionReplySchema, answer.data);
    if (!parsed.ok) throw new Error(`The team relay answered something unexpected: ${parsed.reason}`);
    return parsed.value as ActionReply;
  }

  /** The team's buckets, read by key through this agent's imports (direct gets). */
  #bucket(name: string): Promise<KV> {
    return new Kvm(jetstream(this.#nc, { apiPrefix: ORG_API })).open(name, { allow_direct: true });
  }
}
